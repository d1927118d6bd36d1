import Foundation
import Testing
@testable import AppStoreVerification

/// Answers that carry no signature the verifier can check, served by loopback servers: they are no
/// verdict (anyone on the path can forge them), so the verifier throws RevocationCheckUnavailable.
@Suite("OCSP unsigned answers")
struct OCSPUnsignedAnswerTests {
    let pki: OCSPTestPKI

    init() async throws {
        pki = try await OCSPTestPKI.get()
    }

    private func unavailable(_ leaf: OCSPTestPKI.Leaf) async throws -> RevocationCheckUnavailable? {
        let outcome = try await pki.verify(leaf, pki.verifier(OCSPTestPKI.options(CountingTransport())))
        guard case .failure(let unavailable) = outcome else {
            Issue.record("\(leaf): expected RevocationCheckUnavailable, got \(outcome)")
            return nil
        }
        return unavailable
    }

    @Test("OCSPResponse with status tryLater (30 03 0A 01 03): RevocationCheckUnavailable, responderError")
    func tryLater() async throws {
        let error = try await unavailable(.tryLater)
        #expect(error?.code == .responderError)
        #expect(error?.message.contains("OCSPResponseStatus 3") == true, "\(String(describing: error))")
    }

    @Test("OCSPResponse with status internalError (30 03 0A 01 02): RevocationCheckUnavailable, responderError")
    func internalError() async throws {
        let error = try await unavailable(.internalError)
        #expect(error?.code == .responderError)
        #expect(error?.message.contains("OCSPResponseStatus 2") == true, "\(String(describing: error))")
    }

    @Test("a successful response whose responseType is not id-pkix-ocsp-basic: RevocationCheckUnavailable, invalidResponse")
    func notBasic() async throws {
        let error = try await unavailable(.notBasic)
        #expect(error?.code == .invalidResponse)
        #expect(error?.message.contains("not a basic OCSP response") == true, "\(String(describing: error))")
    }
}
