import AppStoreServerAPI
import AppStoreServerAPITesting
import AppStoreVerification
import AppStoreVerificationTesting
import Foundation
import ReceiptServerCore
import Synchronization
import Testing

/// Outbound events the other paths make: an `entitlements.changed` caused by a notification the
/// backfill fetched and by a reconcile, each with its cause; and the pending and dead-lettered
/// gauges after the expiry check ran.
@Suite("Outbound events: the backfill's and reconcile's causes, the backlog gauges", .timeLimit(.minutes(3)))
struct WebhookCauseAndBacklogTests {
    typealias AppleFake = AppStoreServerAPITesting.FakeAppStoreServerAPI
    static let customer = BackfillTests.customer

    static func changes(_ received: [WebhookReceiver.Received]) -> [WebhookReceiver.Received] {
        received.filter { $0.type == "entitlements.changed" }
    }

    @Test("A notification the backfill fetched: entitlements.changed with the notification's cause", arguments: StoreKind.allCases)
    func backfillCause(store: StoreKind) async throws {
        let world = try BackfillTests.World()
        let database = try await TestDatabase.make(store)
        defer { database.remove() }
        // Apple's DID_RENEW, never POSTed: the customer's only record.
        let renewal = try world.notification(.didRenew, signed: 60, transaction: world.renewal)
        let uuid = try #require(TestData.unverifiedPayload(renewal)["notificationUUID"] as? String)
        let receiver = try await WebhookReceiver.start()
        defer { Task { await receiver.stop() } }
        try await AppleFake.withServer(keyId: ReconcileTests.keyId, issuerId: ReconcileTests.issuerId, bundleId: "com.example.app",
                                       publicKey: world.apiKey.publicKeyDER) { fake in
            fake.setNotificationHistory([.init(signedPayload: renewal)])
            let reports = BackfillTests.Reports()
            let server = try await TestServer.start(
                databasePath: database.location, roots: [world.pki.trustedRoot], now: world.now,
                reconcile: AppleRateLimitTests.configuration(world.apiKey, fake),
                backfill: BackfillConfiguration(interval: .seconds(3600), margin: .seconds(3600), initialWindow: .seconds(86_400)),
                webhooks: try WebhookTests.configuration(receiver.url), onBackfill: { reports.continuation.yield($0) }, testing: .router)
            try await server.stopping {
                let report = try await reports.next()
                #expect(report.failure == nil, "\(report)")
                #expect(report.stored == 1)
                try await receiver.waitUntil("the backfilled notification's events") { received in
                    Self.changes(received).count == 1 && received.contains { $0.type == "notification.received" }
                }
                let change = try #require(Self.changes(receiver.received).first)
                #expect(change.customer == Self.customer)
                #expect(change.sequence == 1)
                #expect(change.grantedProducts == ["com.example.app.monthly"])
                #expect(change.cause["kind"] as? String == "notification")
                #expect(change.cause["notificationType"] as? String == "DID_RENEW")
                #expect(change.cause["notificationUUID"] as? String == uuid)
                #expect(change.cause["transactionId"] as? String == "8000000000000003")
                #expect(change.cause["originalTransactionId"] as? String == "8000000000000002")
                let notice = try #require(receiver.received.first { $0.type == "notification.received" })
                #expect(notice.data["notificationUUID"] as? String == uuid)
                #expect(notice.data["appAccountToken"] as? String == Self.customer)
                try WebhookTests.expectVerified(receiver)
            }
        }
    }

    @Test("A reconcile: entitlements.changed for each stored transaction that changed them, with its transaction as the cause",
          arguments: StoreKind.allCases)
    func reconcileCause(store: StoreKind) async throws {
        let world = try BackfillTests.World()
        let database = try await TestDatabase.make(store)
        defer { database.remove() }
        // The customer's history at Apple: a lifetime unlock, a month that ended 10 days ago, its renewal.
        let history = try [world.lifetime, world.firstMonth, world.renewal].map { try world.minter.transaction($0) }
        let receiver = try await WebhookReceiver.start()
        defer { Task { await receiver.stop() } }
        try await AppleFake.withServer(keyId: ReconcileTests.keyId, issuerId: ReconcileTests.issuerId, bundleId: "com.example.app",
                                       publicKey: world.apiKey.publicKeyDER) { fake in
            fake.setTransactionHistory(history, for: "8000000000000003")
            let server = try await TestServer.start(
                databasePath: database.location, roots: [world.pki.trustedRoot], now: world.now,
                reconcile: AppleRateLimitTests.configuration(world.apiKey, fake), webhooks: try WebhookTests.configuration(receiver.url), testing: .router)
            try await server.stopping {
                let answer = try await server.request(.POST, "/transactions/8000000000000003/reconcile", headers: server.backendHeaders,
                                                      body: try ReconcileTests.body(["appAccountToken": Self.customer]))
                #expect(answer.status == 200, "\(answer.text)")
                #expect(answer.json["stored"] as? Int == 3)
                // The expired month changes nothing: two events, not three.
                try await receiver.waitUntil("the reconcile's events") { Self.changes($0).count >= 2 }
                let store = server.store
                let events = try await store.webhookEvents(ofCustomer: Self.customer)
                #expect(events.filter { $0.type == "entitlements.changed" }.count == 2)
                let changes = Self.changes(receiver.firstDeliveries)
                #expect(changes.map(\.sequence) == [1, 2])
                #expect(changes.allSatisfy { $0.customer == Self.customer })
                #expect(changes.map { $0.cause["kind"] as? String } == ["transaction", "transaction"])
                #expect(changes.map { $0.cause["transactionId"] as? String } == ["8000000000000001", "8000000000000003"])
                #expect(changes.map { $0.cause["originalTransactionId"] as? String } == ["8000000000000001", "8000000000000002"])
                #expect(changes.allSatisfy { $0.cause["notificationType"] == nil })
                #expect(changes.map(\.grantedProducts) == [["com.example.app.lifetime"], ["com.example.app.lifetime", "com.example.app.monthly"]])
                try WebhookTests.expectVerified(receiver)
            }
        }
    }

    /// `receipt_server_webhook_pending` and `receipt_server_webhook_dead_lettered`.
    static func gauges(_ server: TestServer) -> [Double?] {
        [server.metric("receipt_server_webhook_pending"), server.metric("receipt_server_webhook_dead_lettered")]
    }

    @Test("The pending and dead-lettered gauges count the database's events after each expiry check", arguments: StoreKind.allCases)
    func backlogGauges(store: StoreKind) async throws {
        let database = try await TestDatabase.make(store)
        defer { database.remove() }
        let world = try WebhookTests.World()
        let accepting = Atomic<Bool>(false)
        let receiver = try await WebhookReceiver.start { _, _ in accepting.load(ordering: .sequentiallyConsistent) ? 204 : 500 }
        defer { Task { await receiver.stop() } }

        // First: an endpoint answering 500 and a retry period shorter than the first retry: two
        // customers' events are dead-lettered after one attempt each.
        var dying = try WebhookTests.configuration(receiver.url, expiryCheck: .milliseconds(100))
        dying.retryPeriod = .milliseconds(1)
        let first = try await WebhookTests.startServer(database, world: world, webhooks: dying, clock: ManualClock(date: world.now), testing: .router)
        try await first.stopping {
            for (index, customer) in (0..<2).map({ _ in UUID().uuidString.lowercased() }).enumerated() {
                let jws = try world.minter.transaction(world.lifetime("750000000000000\(index)", customer: customer))
                #expect(try await first.postTransaction(jws, appAccountToken: customer).status == 200)
            }
            try await first.waitUntilMetrics("both events dead-lettered and the gauges refreshed") {
                $0.metric("receipt_server_webhook_deliveries_total{result=\"dead\"}") == 2 && Self.gauges($0) == [0, 2]
            }
        }

        // Then, on the same database, the default retry period: three customers' events wait while
        // the endpoint fails, beside the two dead-lettered ones.
        let second = try await WebhookTests.startServer(
            database, world: world, webhooks: try WebhookTests.configuration(receiver.url, expiryCheck: .milliseconds(100)), clock: ManualClock(date: world.now), testing: .router)
        try await second.stopping {
            for (index, customer) in (0..<3).map({ _ in UUID().uuidString.lowercased() }).enumerated() {
                let jws = try world.minter.transaction(world.lifetime("751000000000000\(index)", customer: customer))
                #expect(try await second.postTransaction(jws, appAccountToken: customer).status == 200)
            }
            try await second.waitUntilMetrics("three pending, two dead-lettered") { Self.gauges($0) == [3, 2] }
            #expect(second.metric("receipt_server_webhook_deliveries_total{result=\"dead\"}") == nil)
            // The endpoint back: the pending ones are delivered and the next check says so; the
            // dead-lettered stay until redelivered.
            accepting.store(true, ordering: .sequentiallyConsistent)
            try await second.waitUntilMetrics("nothing pending, two dead-lettered") {
                $0.metric("receipt_server_webhook_deliveries_total{result=\"delivered\"}") == 3 && Self.gauges($0) == [0, 2]
            }
            let health = try await second.store.webhookEndpointHealth()
            #expect(health.map(\.pending) == [0] && health.map(\.dead) == [2], "\(health)")
        }
        try WebhookTests.expectVerified(receiver)
    }
}
