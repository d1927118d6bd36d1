import AppStoreServerAPI
import AppStoreServerAPITesting
import AppStoreVerification
import AppStoreVerificationTestSupport
import AppStoreVerificationTesting
import Foundation
import ReceiptServerCore
import Testing

/// No notification missed: notifications Apple sent while the server was down (never POSTed to
/// it) come from Get Notification History of a fake App Store on 127.0.0.1, at start and every
/// interval, verified like POSTed ones, and count for their customer.
@Suite("Backfill: missed notifications come from Get Notification History", .timeLimit(.minutes(3)))
struct BackfillTests {
    static let customer = "2c9d4e6f-8a1b-4c3d-9e5f-6a7b8c9d0e1f"
    static let hour: TimeInterval = 3600
    static let day: TimeInterval = 86_400

    /// A test PKI, an API key and the customer's signed data, relative to `now`.
    struct World {
        let now = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 * 1000).rounded(.down) / 1000)
        let pki: TestPKI
        let minter: SignedDataMinter
        let apiKey: SigningKey

        init() throws {
            pki = try TestPKI()
            minter = try SignedDataMinter(pki: pki)
            apiKey = try SigningKey(pem: try TestPrivateKey(generating: .p256).pemEncoded)
        }

        /// A lifetime unlock bought 10 days ago.
        var lifetime: Transaction {
            Transaction(transactionId: "8000000000000001", productId: "com.example.app.lifetime", purchaseDate: now.addingTimeInterval(-10 * day),
                        type: .nonConsumable, appAccountToken: BackfillTests.customer, signedDate: now.addingTimeInterval(-10 * day))
        }

        /// A monthly subscription's first period, ended 10 days ago.
        var firstMonth: Transaction {
            Transaction(transactionId: "8000000000000002", productId: "com.example.app.monthly", subscriptionGroupIdentifier: "21000001",
                        purchaseDate: now.addingTimeInterval(-40 * day), expiresDate: now.addingTimeInterval(-10 * day),
                        type: .autoRenewableSubscription, appAccountToken: BackfillTests.customer, signedDate: now.addingTimeInterval(-40 * day))
        }

        /// Its renewal, running for 20 more days.
        var renewal: Transaction {
            Transaction(transactionId: "8000000000000003", productId: "com.example.app.monthly", originalTransactionId: "8000000000000002",
                        subscriptionGroupIdentifier: "21000001", purchaseDate: now.addingTimeInterval(-10 * day), expiresDate: now.addingTimeInterval(20 * day),
                        type: .autoRenewableSubscription, appAccountToken: BackfillTests.customer, signedDate: now.addingTimeInterval(-2 * hour),
                        transactionReason: .renewal)
        }

        func notification(_ type: NotificationTypeV2, signed ago: TimeInterval, transaction: Transaction) throws -> String {
            try minter.notification(ResponseBodyV2DecodedPayload(notificationType: type, signedDate: now.addingTimeInterval(-ago)), transaction: transaction)
        }

        /// `jws` with its notification type changed and the signature kept.
        static func tampered(_ jws: String) -> String {
            let parts = jws.split(separator: ".").map(String.init)
            let payload = String(decoding: base64URLDecoded(parts[1]) ?? Data(), as: UTF8.self)
                .replacingOccurrences(of: "DID_RENEW", with: "DID_CHANGE_RENEWAL_PREF")
            return [parts[0], base64URLEncoded(Data(payload.utf8)), parts[2]].joined(separator: ".")
        }
    }

    /// Reports of the server's backfill runs, as they come.
    final class Reports: Sendable {
        let stream: AsyncStream<BackfillReport>
        let continuation: AsyncStream<BackfillReport>.Continuation
        init() { (stream, continuation) = AsyncStream.makeStream() }

        /// The next report (within a minute).
        func next() async throws -> BackfillReport {
            let stream = self.stream
            return try await within(.seconds(60), "a backfill run") {
                var iterator = stream.makeAsyncIterator()
                guard let report = await iterator.next() else { throw TestServerError("the backfill reported nothing") }
                return report
            }
        }
    }

    static func reconcile(_ world: World, _ fake: FakeAppStoreServerAPI, key: SigningKey? = nil) -> ReconcileConfiguration {
        ReconcileConfiguration(signingKey: key ?? world.apiKey, keyId: ReconcileTests.keyId, issuerId: ReconcileTests.issuerId,
                               environment: .sandbox, baseURL: fake.baseURL, options: ReconcileTests.options)
    }

    @Test("At start: a REFUND and a renewal never POSTed are stored and count; the one already stored is skipped; a tampered one is refused",
          arguments: StoreKind.allCases)
    func missedNotificationsCount(store: StoreKind) async throws {
        let world = try World()
        let database = try await TestDatabase.make(store)
        defer { database.remove() }

        // Before: the app sent both purchases, and Apple's SUBSCRIBED of 5 days ago arrived.
        let subscribed = try world.notification(.subscribed, signed: 5 * Self.day, transaction: world.firstMonth)
        let before = try await TestServer.start(databasePath: database.location, roots: [world.pki.trustedRoot], now: world.now, testing: .router)
        try await before.stopping { () async throws in
            #expect(try await before.postTransaction(try world.minter.transaction(world.lifetime), as: .anonymous).status == 200)
            #expect(try await before.postTransaction(try world.minter.transaction(world.firstMonth), as: .anonymous).status == 200)
            #expect(try await before.postNotification(subscribed, as: .anonymous).status == 200)
            #expect(try await before.entitlements(of: Self.customer).entitlements.compactMap { $0["productId"] as? String } == ["com.example.app.lifetime"])
        }

        // While the server was down, Apple sent a refund and a renewal (and, before the last stored
        // notification's window, a refund of the renewal that must not be asked for).
        var refunded = world.lifetime
        refunded = Transaction(transactionId: refunded.transactionId, productId: refunded.productId, purchaseDate: refunded.purchaseDate,
                               type: .nonConsumable, appAccountToken: Self.customer, signedDate: world.now.addingTimeInterval(-Self.day),
                               revocationReason: .init(rawValue: 0), revocationDate: world.now.addingTimeInterval(-Self.day))
        let refund = try world.notification(.refund, signed: Self.day, transaction: refunded)
        let renewed = try world.notification(.didRenew, signed: 2 * Self.hour, transaction: world.renewal)
        let tampered = World.tampered(try world.notification(.didRenew, signed: 3 * Self.hour, transaction: world.renewal))
        let tooOld = try world.notification(.refund, signed: 6 * Self.day, transaction: world.renewal)
        try await FakeAppStoreServerAPI.withServer(keyId: ReconcileTests.keyId, issuerId: ReconcileTests.issuerId, bundleId: "com.example.app",
                                                   publicKey: world.apiKey.publicKeyDER) { fake in
            fake.pageSize = 2
            fake.setNotificationHistory([tooOld, subscribed, refund, tampered, renewed].map { .init(signedPayload: $0) })
            let reports = Reports()
            let server = try await TestServer.start(
                databasePath: database.location, roots: [world.pki.trustedRoot], now: world.now, reconcile: Self.reconcile(world, fake),
                backfill: BackfillConfiguration(interval: .seconds(3600), margin: .seconds(3600), initialWindow: .seconds(30 * 86_400)),
                onBackfill: { reports.continuation.yield($0) }, testing: .router)
            try await server.stopping {
                let report = try await reports.next()
                #expect(report.failure == nil, "\(report)")
                #expect(report.received == 4)
                #expect(report.stored == 2)
                #expect(report.alreadyStored == 1)
                #expect(report.refused == 1)

                // From the last stored notification's signedDate minus the margin, to now, every page.
                let subscribedAt = try #require(FakeAppStoreServerAPI.signedDate(of: subscribed))
                let requests = fake.requests
                #expect(requests.allSatisfy { $0.path == "/inApps/v1/notifications/history" && $0.tokenRefusal == nil }, "\(requests)")
                #expect(requests.map { $0.queryValues("paginationToken").first } == [nil, "page-2"])
                #expect(requests.allSatisfy { $0.notificationHistoryRange == (subscribedAt - 3_600_000)..<Int64(world.now.timeIntervalSince1970 * 1000) })

                // The customer's entitlements reflect them: the unlock refunded, the subscription renewed.
                let answer = try await server.entitlements(of: Self.customer)
                let granted = answer.entitlements.map { "\($0["productId"] as? String ?? "?") \($0["transactionId"] as? String ?? "?")" }
                #expect(granted == ["com.example.app.monthly 8000000000000003"], "\(answer.text)")
                let lifetime = answer.statuses.first { $0["productId"] as? String == "com.example.app.lifetime" }
                #expect(lifetime?["state"] as? String == "revoked", "\(answer.text)")
                #expect(try await server.store.count(of: .notification) == 3)

                #expect(server.metric(#"receipt_server_backfill_notifications_total{result="stored"}"#) == 2)
                #expect(server.metric(#"receipt_server_backfill_notifications_total{result="alreadyStored"}"#) == 1)
                #expect(server.metric(#"receipt_server_backfill_notifications_total{result="refused"}"#) == 1)
                #expect(server.metric(#"receipt_server_backfill_runs_total{result="ok"}"#) == 1)
                #expect(server.metric(#"receipt_server_verifications_total{kind="backfilledNotification",outcome="verified"}"#) == 2)
                #expect(server.metric(#"receipt_server_verifications_total{kind="backfilledNotification",outcome="invalidSignature"}"#) == 1)
                #expect(server.metric("receipt_server_backfill_last_success_timestamp_seconds") != nil)
            }
        }
    }

    @Test("On an empty database it starts a window back; every interval it runs again and stores nothing twice", arguments: StoreKind.allCases)
    func emptyDatabaseAndRepeat(store: StoreKind) async throws {
        let world = try World()
        let database = try await TestDatabase.make(store)
        defer { database.remove() }
        // Five renewals of the subscription in the last hour, never POSTed; the purchase itself never sent by the app.
        let notifications = try (1...5).map { minute in
            let renewal = world.renewal
            return try world.minter.notification(
                ResponseBodyV2DecodedPayload(notificationType: .didRenew, signedDate: world.now.addingTimeInterval(-Double(minute) * 60)),
                transaction: Transaction(transactionId: "810000000000000\(minute)", productId: renewal.productId, originalTransactionId: renewal.originalTransactionId,
                                         subscriptionGroupIdentifier: renewal.subscriptionGroupIdentifier, purchaseDate: renewal.purchaseDate.addingTimeInterval(Double(minute)),
                                         expiresDate: renewal.expiresDate, type: .autoRenewableSubscription, appAccountToken: Self.customer,
                                         signedDate: world.now.addingTimeInterval(-Double(minute) * 60), transactionReason: .renewal))
        }
        try await FakeAppStoreServerAPI.withServer(keyId: ReconcileTests.keyId, issuerId: ReconcileTests.issuerId, bundleId: "com.example.app",
                                                   publicKey: world.apiKey.publicKeyDER) { fake in
            fake.pageSize = 2
            fake.setNotificationHistory(notifications.map { .init(signedPayload: $0) })
            let reports = Reports()
            let server = try await TestServer.start(
                databasePath: database.location, roots: [world.pki.trustedRoot], now: world.now, reconcile: Self.reconcile(world, fake),
                backfill: BackfillConfiguration(interval: .milliseconds(200), margin: .seconds(3600), initialWindow: .seconds(7 * 86_400)),
                onBackfill: { reports.continuation.yield($0) }, testing: .router)
            try await server.stopping {
                let first = try await reports.next()
                #expect(first.failure == nil, "\(first)")
                #expect(first.stored == 5)
                #expect(first.startDate == Int64(world.now.timeIntervalSince1970 * 1000) - 7 * 86_400_000)
                #expect(fake.requests.prefix(3).map { $0.queryValues("paginationToken").first } == [nil, "page-2", "page-4"])
                let granted = try await server.entitlements(of: Self.customer).entitlements.compactMap { $0["productId"] as? String }
                #expect(granted == ["com.example.app.monthly"])

                let second = try await reports.next()
                #expect(second.failure == nil, "\(second)")
                #expect(second.received == 5)
                #expect(second.stored == 0)
                #expect(second.alreadyStored == 5)
                #expect(try await server.store.count(of: .notification) == 5)
            }
        }
    }

    @Test("A key Apple refuses: the run fails, is logged and counted, nothing is stored")
    func refusedKey() async throws {
        let world = try World()
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let notification = try world.notification(.refund, signed: Self.hour, transaction: world.lifetime)
        try await FakeAppStoreServerAPI.withServer(keyId: ReconcileTests.keyId, issuerId: ReconcileTests.issuerId, bundleId: "com.example.app",
                                                   publicKey: world.apiKey.publicKeyDER) { fake in
            fake.pageSize = 2
            fake.setNotificationHistory([notification].map { .init(signedPayload: $0) })
            let reports = Reports()
            let otherKey = try SigningKey(pem: try TestPrivateKey(generating: .p256).pemEncoded)
            let server = try await TestServer.start(
                databasePath: directory.databasePath, roots: [world.pki.trustedRoot], now: world.now, reconcile: Self.reconcile(world, fake, key: otherKey),
                backfill: BackfillConfiguration(), onBackfill: { reports.continuation.yield($0) }, testing: .router)
            try await server.stopping {
                let report = try await reports.next()
                #expect(report.failure?.contains("App Store Server API") == true, "\(report)")
                #expect(report.stored == 0)
                #expect(server.metric(#"receipt_server_backfill_runs_total{result="error"}"#) == 1)
                #expect(try await server.store.count() == 0)
            }
        }
    }
}
