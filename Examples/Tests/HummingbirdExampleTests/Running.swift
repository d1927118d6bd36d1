import AppStoreVerification
import Foundation
import Hummingbird
import HummingbirdExample
import HummingbirdTesting
import NIOCore
import Testing

/// The example's routes in a running Hummingbird application on 127.0.0.1 (a free port), called
/// with real HTTP requests (HummingbirdTesting's live client).
enum Running {
    /// Runs `body` with a live client of an application on the example's router.
    static func with(verifier: SignedDataVerifier, onlineVerifier: OnlineSignedDataVerifier?, ledger: PurchaseLedger,
                     _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        let app = Application(router: makeRouter(verifier: verifier, onlineVerifier: onlineVerifier, ledger: ledger),
                              configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in try await body(client) }
    }

    /// POSTs `body` to `path` and returns the status code, or -1 when no answer came (the error is
    /// recorded as the test's issue).
    static func status(_ client: any TestClientProtocol, _ path: String, _ body: Data) async -> Int {
        do {
            return try await client.execute(uri: path, method: .post, body: ByteBuffer(bytes: body)) { response in response.status.code }
        } catch {
            Issue.record("POST \(path): \(error)")
            return -1
        }
    }
}
