import AppStoreVerification
import AppStoreVerificationTesting
import ExampleFixtures
import Foundation
import Testing
import VaporExample
import VaporTesting

/// The offline routes in a running Vapor application on 127.0.0.1 (a free port), called with real
/// HTTP requests through AsyncHTTPClient.
@Suite(.timeLimit(.minutes(5)))
struct OfflineRouteTests {
    static let pki = Result { try TestPKI() }

    /// A verifier trusting the test PKI and the repository's vector root.
    static func verifier() throws -> SignedDataVerifier {
        let pki = try pki.get()
        return try SignedDataVerifier(configuration: .init(trustedRoots: [pki.trustedRoot, try Fixtures.vectorRoot()],
                                                          bundleId: "com.example.app", environment: .sandbox))
    }

    /// Runs `body` with the example's routes in a running application and its ledger.
    static func withRunningApp(_ body: (any TestingApplicationTester, PurchaseLedger) async throws -> Void) async throws {
        let ledger = PurchaseLedger()
        try await withApp(configure: { app in configure(app, verifier: try verifier(), onlineVerifier: nil, ledger: ledger) }) { app in
            try await body(try app.testing(method: .running(hostname: "127.0.0.1", port: 0)), ledger)
        }
    }

    @Test func aTransactionIsGrantedAForgedOneRefusedAndGarbageABadRequest() async throws {
        try await Self.withRunningApp { tester, ledger in
            let minter = try SignedDataMinter(pki: try Self.pki.get())
            let jws = try minter.transaction(Transaction(transactionId: "1", productId: "com.example.pro"))
            try await tester.test(.POST, "transactions", body: .init(string: jws)) { response in
                #expect(response.status == .ok)
            }
            let forged = try SignedDataMinter(pki: try Self.pki.get().variant(.wrongKey)).transaction(Transaction(transactionId: "2", productId: "p"))
            try await tester.test(.POST, "transactions", body: .init(string: forged)) { response in
                #expect(response.status == .forbidden)
            }
            try await tester.test(.POST, "transactions", body: .init(string: "not a JWS")) { response in
                #expect(response.status == .badRequest)
            }
            #expect(await ledger.grantedTransactionIds == ["1"])
        }
    }

    @Test func theRepositorysFullSizeNotificationIsVerified() async throws {
        let body = Fixtures.body(signedPayload: try Fixtures.vector("notification-valid.jws"))
        #expect(body.count > 18 * 1024, "the vector is \(body.count) bytes")
        try await Self.withRunningApp { tester, ledger in
            try await tester.test(.POST, "notifications", body: .init(data: body)) { response in
                #expect(response.status == .ok, "\(response.body.string)")
            }
            #expect(await ledger.storedNotificationUUIDs.count == 1)
        }
    }

    @Test func theLargestRealisticNotificationIsVerified() async throws {
        let body = try Fixtures.largestRealisticNotificationBody(minter: SignedDataMinter(pki: try Self.pki.get()))
        #expect(body.count > 26_000, "the notification is \(body.count) bytes")
        try await Self.withRunningApp { tester, ledger in
            try await tester.test(.POST, "notifications", body: .init(data: body)) { response in
                #expect(response.status == .ok, "\(response.body.string)")
            }
            #expect(await ledger.storedNotificationUUIDs.count == 1)
        }
    }

    @Test func vaporsDefaultBodyLimitRefusesAFullSizeNotification() async throws {
        // Why the notification route collects up to 1 MB: a route with Vapor's defaults answers 413
        // before the handler runs.
        let body = Fixtures.body(signedPayload: try Fixtures.vector("notification-valid.jws"))
        try await withApp { app in
            app.post("default-limit") { _ async throws -> HTTPStatus in .ok }
            try await app.testing(method: .running(hostname: "127.0.0.1", port: 0)).test(.POST, "default-limit", body: .init(data: body)) { response in
                #expect(response.status == .payloadTooLarge)
            }
        }
    }
}
