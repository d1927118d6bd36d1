import Foundation
import Testing
@testable import AppStoreVerification

/// The nonce against a replay: a genuine `openssl ocsp` answer (which echoes the nonce of the request
/// it answers) recorded and served again to a later request carrying another nonce.
@Suite("OCSP nonce against a replayed answer")
struct OCSPNonceReplayTests {
    let pki: OCSPTestPKI

    init() async throws {
        pki = try await OCSPTestPKI.get()
    }

    @Test("a replayed answer echoing another request's nonce is refused: RevocationCheckUnavailable, invalidResponse")
    func replayRefused() async throws {
        let transport = ReplayingTransport()
        // The first verifier's requests reach the real responders; their answers are recorded.
        let first = try await pki.verify(.good, pki.verifier(OCSPTestPKI.options(transport))).get()
        #expect(first.isVerified, "\(String(describing: first.verificationError))")
        #expect(transport.replays == 0)
        // A second verifier (its own, empty cache) sends new nonces and gets the recorded answers.
        let replayed = try await pki.verify(.good, pki.verifier(OCSPTestPKI.options(transport)))
        #expect(transport.replays == 2)  // the leaf's answer and the intermediate's
        guard case .failure(let unavailable) = replayed else {
            Issue.record("expected the replayed answer to be refused as unavailable, got \(replayed)")
            return
        }
        #expect(unavailable.code == .invalidResponse)
        #expect(unavailable.message.contains("answers another request"), "\(unavailable.message)")
    }

    @Test("without a nonce the same replay is accepted (what the nonce buys)")
    func replayWithoutNonceAccepted() async throws {
        let transport = ReplayingTransport()
        var options = OCSPTestPKI.options(transport)
        options.sendsNonce = false
        #expect(try await pki.verify(.good, pki.verifier(options)).get().isVerified)
        let replayed = try await pki.verify(.good, pki.verifier(options)).get()
        #expect(transport.replays == 2)
        #expect(replayed.isVerified, "\(String(describing: replayed.verificationError))")
    }
}
