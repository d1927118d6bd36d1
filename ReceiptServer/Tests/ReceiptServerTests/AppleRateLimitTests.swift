import AppStoreServerAPI
import AppStoreServerAPITesting
import AppStoreVerification
import AppStoreVerificationTesting
import Foundation
import ReceiptServerCore
import Testing

/// Apple's 429, with `Retry-After` as Apple documents it (the UNIX time, in milliseconds, when the
/// next request may go), met by the service's two callers of the App Store Server API: reconcile
/// and the notification backfill wait until that instant and succeed. The library's fake App Store
/// answers in Apple's form.
@Suite("Apple's rate limit answer: reconcile and the backfill wait for Retry-After and succeed", .timeLimit(.minutes(2)))
struct AppleRateLimitTests {
    /// The library's fake (this test module has an older one of its own by the same name).
    typealias AppleFake = AppStoreServerAPITesting.FakeAppStoreServerAPI

    static func configuration(_ apiKey: SigningKey, _ fake: AppleFake) -> ReconcileConfiguration {
        ReconcileConfiguration(signingKey: apiKey, keyId: ReconcileTests.keyId, issuerId: ReconcileTests.issuerId,
                               environment: .sandbox, baseURL: fake.baseURL, options: ReconcileTests.options)
    }

    @Test("Reconcile: a 429 asking for one second, then the history, stored")
    func reconcileWaitsAndSucceeds() async throws {
        let world = try ReconcileTests.World()
        try await AppleFake.withServer(keyId: ReconcileTests.keyId, issuerId: ReconcileTests.issuerId, bundleId: "com.example.app",
                                       publicKey: world.apiKey.publicKeyDER) { fake in
            fake.setTransactionHistory(world.history, for: "3000000000000003")
            fake.enqueue(.rateLimited(retryAfter: 1))
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let server = try await TestServer.start(databasePath: directory.databasePath, roots: [world.pki.trustedRoot],
                                                    reconcile: Self.configuration(world.apiKey, fake), testing: .router)
            try await server.stopping {
                let answer = try await server.request(.POST, "/transactions/3000000000000003/reconcile", headers: server.backendHeaders,
                                                      body: try ReconcileTests.body(["appAccountToken": ReconcileTests.customer]))
                #expect(answer.status == 200, "\(answer.text)")
                #expect(answer.json["stored"] as? Int == 4)
                // The 429, then the page: the client waited for Apple's instant and asked again.
                #expect(fake.requests.count == 2)
            }
        }
    }

    @Test("Backfill: a 429 asking for one second, then the notification history, stored")
    func backfillWaitsAndSucceeds() async throws {
        let world = try BackfillTests.World()
        let renewal = try world.notification(.didRenew, signed: 60, transaction: world.renewal)
        try await AppleFake.withServer(keyId: ReconcileTests.keyId, issuerId: ReconcileTests.issuerId, bundleId: "com.example.app",
                                       publicKey: world.apiKey.publicKeyDER) { fake in
            fake.setNotificationHistory([.init(signedPayload: renewal)])
            fake.enqueue(.rateLimited(retryAfter: 1))
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let reports = BackfillTests.Reports()
            let server = try await TestServer.start(
                databasePath: directory.databasePath, roots: [world.pki.trustedRoot], now: world.now, reconcile: Self.configuration(world.apiKey, fake),
                backfill: BackfillConfiguration(interval: .seconds(3600), margin: .seconds(3600), initialWindow: .seconds(86_400)),
                onBackfill: { reports.continuation.yield($0) }, testing: .router)
            try await server.stopping {
                let report = try await reports.next()
                #expect(report.failure == nil, "\(report)")
                #expect(report.stored == 1)
                #expect(fake.requests.count == 2)
                #expect(try await server.store.count(of: .notification) == 1)
            }
        }
    }
}
