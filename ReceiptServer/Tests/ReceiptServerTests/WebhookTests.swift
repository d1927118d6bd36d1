import AppStoreVerification
import AppStoreVerificationTestSupport
import AppStoreVerificationTesting
import Foundation
import Logging
@testable import ReceiptServerCore
import Testing

/// Outbound events (Docs/Webhooks.md) over real HTTP to receivers on 127.0.0.1, every signature
/// checked by an independent implementation (Tests/Webhooks/verify_webhooks.py), on both stores.
@Suite("Outbound events", .timeLimit(.minutes(3)))
struct WebhookTests {
    static let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
    static let day: TimeInterval = 86_400
    static let hour: TimeInterval = 3600

    /// A test PKI's signed data, relative to `now`.
    struct World {
        let now = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 * 1000).rounded(.down) / 1000)
        let pki: TestPKI
        let minter: SignedDataMinter
        let customer = UUID().uuidString.lowercased()

        init() throws {
            pki = try ConsoleFixture.sharedPKI.get()
            minter = try SignedDataMinter(pki: pki)
        }

        func monthly(_ id: String, original: String? = nil, from start: TimeInterval, until end: TimeInterval, reason: TransactionReason = .purchase) -> Transaction {
            Transaction(transactionId: id, productId: "com.example.app.monthly", originalTransactionId: original ?? id, subscriptionGroupIdentifier: "21000001",
                        purchaseDate: now + start, expiresDate: now + end, type: .autoRenewableSubscription,
                        appAccountToken: customer, signedDate: now + start, transactionReason: reason)
        }

        func lifetime(_ id: String, product: String = "com.example.app.lifetime", refunded: Bool = false, customer: String? = nil) -> Transaction {
            Transaction(transactionId: id, productId: product, purchaseDate: now - 2 * day, type: .nonConsumable,
                        appAccountToken: customer ?? self.customer, signedDate: refunded ? now - day : now - 2 * day,
                        revocationReason: refunded ? .refundedForOtherReason : nil, revocationDate: refunded ? now - day : nil,
                        revocationType: refunded ? .refundFull : nil)
        }
    }

    /// A configuration delivering to `url` with retries in milliseconds, so tests wait for events, not for backoff.
    static func configuration(_ url: String, expiryCheck: Duration = .seconds(60)) throws -> WebhookConfiguration {
        var configuration = try WebhookConfiguration(endpoints: [url], secret: try WebhookSecret(secret))
        configuration.firstRetryDelay = .milliseconds(50)
        configuration.maximumRetryDelay = .milliseconds(200)
        configuration.pollInterval = .milliseconds(100)
        configuration.timeout = .seconds(5)
        configuration.expiryCheckInterval = expiryCheck
        return configuration
    }

    static func startServer(_ database: TestDatabase, world: World, webhooks: WebhookConfiguration, clock: ManualClock,
                            access: AccessControl = TestServer.backendAccess, testing: TestServer.Testing = .live) async throws -> TestServer {
        var logger = Logger(label: "WebhookTests")
        logger.logLevel = .warning
        let configuration = ServerConfiguration(
            host: "127.0.0.1", port: 0, databasePath: database.location,
            verifier: .init(trustedRoots: [world.pki.trustedRoot], bundleId: "com.example.app", environment: .sandbox),
            busyTimeoutMilliseconds: 10_000, clock: .manual(clock))
        return try await TestServer.start(logger: logger, bearerToken: access.bearerToken, testing: testing) { onServerRunning in
            try await buildReceiptServer(ReceiptServerConfiguration(
                server: configuration, access: access, backfill: nil, webhooks: webhooks, logger: logger, onServerRunning: onServerRunning))
        }
    }

    static func expectVerified(_ receiver: WebhookReceiver) throws {
        let result = try receiver.verifySignatures(secret: secret)
        #expect(result.status == 0, "signatures: \(result.output)")
        #expect(!receiver.received.isEmpty)
    }

    @Test("Purchase, renewal, refund and expiry each send entitlements.changed, in sequence, signed", arguments: StoreKind.allCases)
    func lifecycle(store: StoreKind) async throws {
        let database = try await TestDatabase.make(store)
        defer { database.remove() }
        let world = try World()
        let clock = ManualClock(date: world.now)
        let receiver = try await WebhookReceiver.start()
        defer { Task { await receiver.stop() } }
        let server = try await Self.startServer(database, world: world, webhooks: try Self.configuration(receiver.url, expiryCheck: .milliseconds(100)), clock: clock, testing: .router)
        try await server.stopping {
            let changes: @Sendable ([WebhookReceiver.Received]) -> [WebhookReceiver.Received] = { received in
                received.filter { $0.type == "entitlements.changed" }
            }
            // Purchase: a monthly subscription running for another hour.
            let purchase = try world.minter.transaction(world.monthly("7100000000000001", from: -Self.day, until: Self.hour))
            #expect(try await server.postTransaction(purchase, appAccountToken: world.customer).status == 200)
            try await receiver.waitUntil("the purchase's event") { changes($0).count == 1 }
            let first = try #require(changes(receiver.received).first)
            #expect(first.customer == world.customer)
            #expect(first.sequence == 1)
            #expect(first.grantedProducts == ["com.example.app.monthly"])
            #expect(first.cause["kind"] as? String == "transaction")
            #expect(first.cause["transactionId"] as? String == "7100000000000001")

            // Renewal: Apple's DID_RENEW with the next period, running for two hours.
            let renewal = world.monthly("7100000000000002", original: "7100000000000001", from: -Self.hour, until: 2 * Self.hour, reason: .renewal)
            let renewed = try world.minter.notification(ResponseBodyV2DecodedPayload(notificationType: .didRenew, signedDate: world.now), transaction: renewal)
            #expect(try await server.postNotification(renewed).status == 200)
            try await receiver.waitUntil("the renewal's event") { changes($0).count == 2 }
            let second = changes(receiver.received)[1]
            #expect(second.sequence == 2)
            #expect(second.cause["kind"] as? String == "notification")
            #expect(second.cause["notificationType"] as? String == "DID_RENEW")
            #expect(second.cause["transactionId"] as? String == "7100000000000002")
            let entitlement = ((second.data["entitlements"] as? [String: Any])?["entitlements"] as? [[String: Any]])?.first
            #expect(entitlement?["transactionId"] as? String == "7100000000000002")
            try await receiver.waitUntil("notification.received of the renewal") { $0.contains { $0.type == "notification.received" } }
            let notice = try #require(receiver.received.first { $0.type == "notification.received" })
            #expect(notice.data["notificationType"] as? String == "DID_RENEW")
            #expect(notice.data["signedPayload"] == nil)

            // Refund: a lifetime unlock bought, then refunded (REFUND).
            #expect(try await server.postTransaction(try world.minter.transaction(world.lifetime("7100000000000003")), appAccountToken: world.customer).status == 200)
            try await receiver.waitUntil("the lifetime purchase's event") { changes($0).count == 3 }
            #expect(changes(receiver.received)[2].grantedProducts == ["com.example.app.lifetime", "com.example.app.monthly"])
            let refund = try world.minter.notification(
                ResponseBodyV2DecodedPayload(notificationType: .refund, signedDate: world.now), transaction: world.lifetime("7100000000000003", refunded: true))
            #expect(try await server.postNotification(refund).status == 200)
            try await receiver.waitUntil("the refund's event") { changes($0).count == 4 }
            let fourth = changes(receiver.received)[3]
            #expect(fourth.sequence == 4)
            #expect(fourth.grantedProducts == ["com.example.app.monthly"])
            #expect(fourth.cause["notificationType"] as? String == "REFUND")

            // Expiry: time alone, past the renewal's end; the expiry check notices.
            clock.advance(by: .seconds(3 * Self.hour))
            try await receiver.waitUntil("the expiry's event") { changes($0).count == 5 }
            let fifth = changes(receiver.received)[4]
            #expect(fifth.sequence == 5)
            #expect(fifth.grantedProducts.isEmpty)
            #expect(fifth.cause["kind"] as? String == "time")
            #expect(changes(receiver.received).map(\.sequence) == [1, 2, 3, 4, 5])
            try Self.expectVerified(receiver)
            // Nothing else: a re-sent purchase changes nothing.
            #expect(try await server.postTransaction(purchase, appAccountToken: world.customer).status == 200)
            let events = try await server.store.webhookEvents(ofCustomer: world.customer)
            #expect(events.filter { $0.type == "entitlements.changed" }.count == 5)
        }
    }

    @Test("A receiver answering 500 three times gets the event on the fourth attempt, with the same webhook-id", arguments: StoreKind.allCases)
    func retries(store: StoreKind) async throws {
        let database = try await TestDatabase.make(store)
        defer { database.remove() }
        let world = try World()
        let receiver = try await WebhookReceiver.start { attempt, _ in attempt <= 3 ? 500 : 200 }
        defer { Task { await receiver.stop() } }
        let server = try await Self.startServer(database, world: world, webhooks: try Self.configuration(receiver.url), clock: ManualClock(date: world.now), testing: .router)
        try await server.stopping {
            #expect(try await server.postTransaction(try world.minter.transaction(world.lifetime("7200000000000001")), appAccountToken: world.customer).status == 200)
            try await receiver.waitUntil("four attempts") { $0.count >= 4 }
            let attempts = receiver.received
            #expect(attempts.count == 4)
            #expect(Set(attempts.map(\.id)).count == 1)
            #expect(Set(attempts.map(\.body)).count == 1)
            try Self.expectVerified(receiver)
            let store = server.store
            let customer = world.customer
            // Counted once recorded in the store.
            try await server.waitUntilMetrics("the event recorded as delivered") { $0.metric("receipt_server_webhook_deliveries_total{result=\"delivered\"}") == 1 }
            let event = try #require(try await store.webhookEvents(ofCustomer: customer).first)
            #expect(event.state == "delivered")
            #expect(event.attempts == 4)
            #expect(event.lastStatus == 200)
            #expect(server.metric("receipt_server_webhook_deliveries_total{result=\"retried\"}") == 3)
            #expect(server.metric("receipt_server_webhook_deliveries_total{result=\"delivered\"}") == 1)
        }
    }

    @Test("A receiver down for a while, then back, gets every event in per-customer order", arguments: StoreKind.allCases)
    func downThenBack(store: StoreKind) async throws {
        let database = try await TestDatabase.make(store)
        defer { database.remove() }
        let world = try World()
        let port = try FreePorts.one()
        let server = try await Self.startServer(
            database, world: world, webhooks: try Self.configuration("http://127.0.0.1:\(port)/hooks"), clock: ManualClock(date: world.now), testing: .router)
        let customers = (0..<3).map { _ in UUID().uuidString.lowercased() }
        let perCustomer = 4
        let receiver: WebhookReceiver = try await server.stopping {
            for n in 0..<perCustomer {
                for (c, customer) in customers.enumerated() {
                    let jws = try world.minter.transaction(world.lifetime("73000000000\(c)\(n)000", product: "com.example.app.item\(n)", customer: customer))
                    #expect(try await server.postTransaction(jws, appAccountToken: customer).status == 200)
                }
            }
            // The endpoint is failing: visible in the store's endpoint health.
            let store = server.store
            // A failed attempt, counted once recorded in the store.
            try await server.waitUntilMetrics("the endpoint seen failing") { $0.metric("receipt_server_webhook_deliveries_total{result=\"retried\"}") ?? 0 >= 1 }
            let health = try #require(try await store.webhookEndpointHealth().first)
            #expect(health.failingSince != nil)
            #expect(health.pending == Int64(customers.count * perCustomer))
            // Back.
            let receiver = try await WebhookReceiver.start(port: port)
            try await receiver.waitUntil("every event") { Set($0.map(\.id)).count == customers.count * perCustomer }
            return receiver
        }
        defer { Task { await receiver.stop() } }
        for customer in customers {
            let sequences = receiver.firstDeliveries.filter { $0.customer == customer }.compactMap(\.sequence)
            #expect(sequences == Array(1...perCustomer), "customer's events in order")
        }
        try Self.expectVerified(receiver)
    }

    @Test("A wrong secret fails verification")
    func wrongSecret() async throws {
        let database = try await TestDatabase.make(.sqlite)
        defer { database.remove() }
        let world = try World()
        let receiver = try await WebhookReceiver.start()
        defer { Task { await receiver.stop() } }
        let server = try await Self.startServer(database, world: world, webhooks: try Self.configuration(receiver.url), clock: ManualClock(date: world.now), testing: .router)
        try await server.stopping {
            #expect(try await server.postTransaction(try world.minter.transaction(world.lifetime("7400000000000001")), appAccountToken: world.customer).status == 200)
            try await receiver.waitUntil("the event") { !$0.isEmpty }
        }
        #expect(try receiver.verifySignatures(secret: Self.secret).status == 0)
        let wrong = try receiver.verifySignatures(secret: "whsec_" + Data(repeating: 7, count: 32).base64EncodedString())
        #expect(wrong.status == 1)
        #expect(wrong.output.contains("no v1 signature matches"))
    }

    @Test("Configuration: a URL without a secret, a bad secret and http to another host are refused, saying what to do")
    func configuration() throws {
        #expect(try WebhookConfiguration.fromEnvironment([:]) == nil)
        #expect(throws: WebhookConfigurationError.self) {
            _ = try WebhookConfiguration.fromEnvironment(["RECEIPT_SERVER_WEBHOOK_URL": "https://example.com/hooks"])
        }
        do {
            _ = try WebhookConfiguration.fromEnvironment(["RECEIPT_SERVER_WEBHOOK_URL": "https://example.com/hooks"])
        } catch {
            #expect(error.description.contains("openssl rand -base64 32"))
        }
        #expect(throws: WebhookConfigurationError.self) { _ = try WebhookSecret("secret") }
        #expect(throws: WebhookConfigurationError.self) { _ = try WebhookSecret("whsec_c2hvcnQ=") }
        #expect(throws: WebhookConfigurationError.self) {
            _ = try WebhookConfiguration(endpoints: ["http://example.com/hooks"], secret: try WebhookSecret(Self.secret))
        }
        let allowed = try WebhookConfiguration.fromEnvironment([
            "RECEIPT_SERVER_WEBHOOK_URL": "http://127.0.0.1:9/a, https://example.com/b", "RECEIPT_SERVER_WEBHOOK_SECRET": Self.secret,
        ])
        #expect(allowed?.endpoints.count == 2)
        #expect(try WebhookConfiguration.fromEnvironment([
            "RECEIPT_SERVER_WEBHOOK_URL": "http://10.0.0.5/hooks", "RECEIPT_SERVER_WEBHOOK_SECRET": Self.secret, "RECEIPT_SERVER_WEBHOOK_ALLOW_HTTP": "1",
        ]) != nil)
    }
}
