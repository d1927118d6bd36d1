import AppStoreVerification
import AppStoreVerificationTesting
import ExampleFixtures
import Foundation
import HummingbirdExample
import Testing

/// The online route (`/online/notifications`) in a running Hummingbird application on 127.0.0.1,
/// with AppStoreVerificationTesting's OCSP responder on 127.0.0.1 answering for the test PKI.
@Suite(.timeLimit(.minutes(5)))
struct OnlineRouteTests {
    /// Generous time limits: on two busy cores a loopback answer can wait seconds for a thread; the
    /// tests are about the answers, not how fast they come.
    static let patient = OCSPOptions(requestTimeout: .seconds(60), overallDeadline: .seconds(90))

    /// An online verifier and an offline one trusting `pki`.
    static func verifiers(_ pki: TestPKI) throws -> (offline: SignedDataVerifier, online: OnlineSignedDataVerifier) {
        (try SignedDataVerifier(configuration: pki.verifierConfiguration()), try OnlineSignedDataVerifier(configuration: pki.verifierConfiguration(), revocation: Self.patient))
    }

    @Test func goodRevokedAndUnavailable() async throws {
        try await TestOCSPResponder.withResponder { responder in
            let pki = try responder.makePKI()
            let notification = ResponseBodyV2DecodedPayload(notificationType: .didRenew)
            let good = try SignedDataMinter(pki: pki).notificationBody(notification, transaction: Transaction(transactionId: "1", productId: "p"))
            // A leaf of its own (answers are cached per certificate), revoked: refused.
            let revokedPKI = try pki.variant(.valid)
            responder.setAnswer(.revoked(at: Date()), for: revokedPKI.chain.leaf)
            let revoked = try SignedDataMinter(pki: revokedPKI).notificationBody(notification, transaction: Transaction(transactionId: "2", productId: "p"))
            // Another leaf whose responder answers HTTP 500: no verdict, 503 (Apple retries).
            let unavailablePKI = try pki.variant(.valid)
            responder.setAnswer(.httpError(status: 500), for: unavailablePKI.chain.leaf)
            let unavailable = try SignedDataMinter(pki: unavailablePKI).notificationBody(notification, transaction: Transaction(transactionId: "3", productId: "p"))

            let verifiers = try Self.verifiers(pki)
            let ledger = PurchaseLedger()
            try await Running.with(verifier: verifiers.offline, onlineVerifier: verifiers.online, ledger: ledger) { client in
                #expect(await Running.status(client, "/online/notifications", good) == 200)
                #expect(await Running.status(client, "/online/notifications", revoked) == 403)
                #expect(await Running.status(client, "/online/notifications", unavailable) == 503)
                #expect(await Running.status(client, "/online/notifications", Data("{}".utf8)) == 400)
            }
            #expect(await ledger.storedNotificationUUIDs.count == 1)
        }
    }

    @Test func theLargestRealisticNotificationIsVerifiedOnline() async throws {
        try await TestOCSPResponder.withResponder { responder in
            let pki = try responder.makePKI()
            let body = try Fixtures.largestRealisticNotificationBody(minter: SignedDataMinter(pki: pki))
            #expect(body.count > 26_000, "the notification is \(body.count) bytes")
            let verifiers = try Self.verifiers(pki)
            let ledger = PurchaseLedger()
            try await Running.with(verifier: verifiers.offline, onlineVerifier: verifiers.online, ledger: ledger) { client in
                #expect(await Running.status(client, "/online/notifications", body) == 200)
            }
            #expect(await ledger.storedNotificationUUIDs.count == 1)
            #expect(responder.requestCount(for: pki.chain.leaf) == 1)
        }
    }
}
