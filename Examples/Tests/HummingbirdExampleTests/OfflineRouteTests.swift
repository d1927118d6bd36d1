import AppStoreVerification
import AppStoreVerificationTesting
import ExampleFixtures
import Foundation
import Hummingbird
import HummingbirdExample
import HummingbirdTesting
import NIOCore
import Testing

/// The offline routes in a running Hummingbird application on 127.0.0.1, with real HTTP requests.
@Suite(.timeLimit(.minutes(5)))
struct OfflineRouteTests {
    static let pki = Result { try TestPKI() }

    /// A verifier trusting the test PKI and the repository's vector root.
    static func verifier() throws -> SignedDataVerifier {
        try SignedDataVerifier(configuration: .init(trustedRoots: [try pki.get().trustedRoot, try Fixtures.vectorRoot()],
                                                   bundleId: "com.example.app", environment: .sandbox))
    }

    @Test func aTransactionIsGrantedAForgedOneRefusedAndGarbageABadRequest() async throws {
        let minter = try SignedDataMinter(pki: try Self.pki.get())
        let jws = try minter.transaction(Transaction(transactionId: "1", productId: "com.example.pro"))
        let forged = try SignedDataMinter(pki: try Self.pki.get().variant(.wrongKey)).transaction(Transaction(transactionId: "2", productId: "p"))
        let ledger = PurchaseLedger()
        try await Running.with(verifier: try Self.verifier(), onlineVerifier: nil, ledger: ledger) { client in
            #expect(await Running.status(client, "/transactions", Data(jws.utf8)) == 200)
            #expect(await Running.status(client, "/transactions", Data(forged.utf8)) == 403)
            #expect(await Running.status(client, "/transactions", Data("not a JWS".utf8)) == 400)
        }
        #expect(await ledger.grantedTransactionIds == ["1"])
    }

    @Test func theRepositorysFullSizeNotificationIsVerified() async throws {
        let body = Fixtures.body(signedPayload: try Fixtures.vector("notification-valid.jws"))
        #expect(body.count > 18 * 1024, "the vector is \(body.count) bytes")
        let ledger = PurchaseLedger()
        try await Running.with(verifier: try Self.verifier(), onlineVerifier: nil, ledger: ledger) { client in
            #expect(await Running.status(client, "/notifications", body) == 200)
        }
        #expect(await ledger.storedNotificationUUIDs.count == 1)
    }

    @Test func theLargestRealisticNotificationIsVerified() async throws {
        let body = try Fixtures.largestRealisticNotificationBody(minter: SignedDataMinter(pki: try Self.pki.get()))
        #expect(body.count > 26_000, "the notification is \(body.count) bytes")
        let ledger = PurchaseLedger()
        try await Running.with(verifier: try Self.verifier(), onlineVerifier: nil, ledger: ledger) { client in
            #expect(await Running.status(client, "/notifications", body) == 200)
        }
        #expect(await ledger.storedNotificationUUIDs.count == 1)
    }

    @Test func aBodyBeyondTheRoutesLimitIsRefused() async throws {
        // collect(upTo: 1 << 20) is the route's limit: a larger body is answered 413.
        let body = Data(repeating: UInt8(ascii: "a"), count: (1 << 20) + 1)
        try await Running.with(verifier: try Self.verifier(), onlineVerifier: nil, ledger: PurchaseLedger()) { client in
            #expect(await Running.status(client, "/notifications", body) == 413)
        }
    }
}
