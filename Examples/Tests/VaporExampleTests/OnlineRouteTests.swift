import AppStoreVerification
import AppStoreVerificationTesting
import ExampleFixtures
import Foundation
import Testing
import VaporExample
import VaporTesting

/// The online route (`/online/notifications`) in a running Vapor application on 127.0.0.1, with
/// AppStoreVerificationTesting's OCSP responder on 127.0.0.1 answering for the test PKI.
@Suite(.timeLimit(.minutes(5)))
struct OnlineRouteTests {
    /// Generous time limits: on two busy cores a loopback answer can wait seconds for a thread; the
    /// tests are about the answers, not how fast they come.
    static let patient = OCSPOptions(requestTimeout: .seconds(60), overallDeadline: .seconds(90))

    /// Runs `body` with a responder, a PKI naming it, and the example's routes running with an online
    /// verifier trusting that PKI; the responder stops afterwards.
    static func withOnlineApp(_ body: (any TestingApplicationTester, TestOCSPResponder, TestPKI, PurchaseLedger) async throws -> Void) async throws {
        try await TestOCSPResponder.withResponder { responder in
            let pki = try responder.makePKI()
            let online = try OnlineSignedDataVerifier(configuration: pki.verifierConfiguration(), revocation: Self.patient)
            let ledger = PurchaseLedger()
            try await withApp(configure: { app in
                configure(app, verifier: try SignedDataVerifier(configuration: pki.verifierConfiguration()), onlineVerifier: online, ledger: ledger)
            }) { app in
                try await body(try app.testing(method: .running(hostname: "127.0.0.1", port: 0)), responder, pki, ledger)
            }
        }
    }

    @Test func goodRevokedAndUnavailable() async throws {
        try await Self.withOnlineApp { tester, responder, pki, ledger in
            let notification = ResponseBodyV2DecodedPayload(notificationType: .didRenew)
            let good = try SignedDataMinter(pki: pki).notificationBody(notification, transaction: Transaction(transactionId: "1", productId: "p"))
            try await tester.test(.POST, "online/notifications", body: .init(data: good)) { response in
                #expect(response.status == .ok, "\(response.body.string)")
            }

            // A leaf of its own (answers are cached per certificate), revoked: refused.
            let revokedPKI = try pki.variant(.valid)
            responder.setAnswer(.revoked(at: Date()), for: revokedPKI.chain.leaf)
            let revoked = try SignedDataMinter(pki: revokedPKI).notificationBody(notification, transaction: Transaction(transactionId: "2", productId: "p"))
            try await tester.test(.POST, "online/notifications", body: .init(data: revoked)) { response in
                #expect(response.status == .forbidden)
            }

            // Another leaf whose responder answers HTTP 500: no verdict, 503 (Apple retries).
            let unavailablePKI = try pki.variant(.valid)
            responder.setAnswer(.httpError(status: 500), for: unavailablePKI.chain.leaf)
            let unavailable = try SignedDataMinter(pki: unavailablePKI).notificationBody(notification, transaction: Transaction(transactionId: "3", productId: "p"))
            try await tester.test(.POST, "online/notifications", body: .init(data: unavailable)) { response in
                #expect(response.status == .serviceUnavailable)
            }

            try await tester.test(.POST, "online/notifications", body: .init(string: "{}")) { response in
                #expect(response.status == .badRequest)
            }
            #expect(await ledger.storedNotificationUUIDs.count == 1)
        }
    }

    @Test func theLargestRealisticNotificationIsVerifiedOnline() async throws {
        try await Self.withOnlineApp { tester, responder, pki, ledger in
            let body = try Fixtures.largestRealisticNotificationBody(minter: SignedDataMinter(pki: pki))
            #expect(body.count > 26_000, "the notification is \(body.count) bytes")
            try await tester.test(.POST, "online/notifications", body: .init(data: body)) { response in
                #expect(response.status == .ok, "\(response.body.string)")
            }
            #expect(await ledger.storedNotificationUUIDs.count == 1)
            #expect(responder.requestCount(for: pki.chain.leaf) == 1)
        }
    }
}
