import Foundation
import Testing
@testable import AppStoreVerification

/// Delegated responders the verifier must not believe, answering through real `openssl ocsp`
/// responders: a responder certificate is believed only when the certificate's issuer signed it and
/// it carries the OCSPSigning extended key usage. (The believed case, a delegate the intermediate
/// signed with the usage, is `OCSPRevocationTests.good`.)
@Suite("OCSP delegated responders against a real responder")
struct OCSPDelegatedResponderTests {
    let pki: OCSPTestPKI

    init() async throws {
        pki = try await OCSPTestPKI.get()
    }

    private func expectRefusedSigner(_ leaf: OCSPTestPKI.Leaf) async throws {
        let result = try await pki.verify(leaf, pki.verifier(OCSPTestPKI.options(CountingTransport()))).get()
        guard case .unverified(_, .invalidCertificateChain(let reason)) = result else {
            Issue.record("\(leaf): expected invalidCertificateChain, got \(result)")
            return
        }
        #expect(reason.contains("not signed by its issuer"), "\(reason)")
        #expect(reason.contains("leaf (x5c[0]"), "\(reason)")
    }

    @Test("a responder certificate the issuer signed without the OCSPSigning EKU: invalidCertificateChain")
    func withoutOCSPSigning() async throws {
        try await expectRefusedSigner(.delegateNoEKU)
    }

    @Test("a responder certificate with the OCSPSigning EKU signed by another CA (a sibling under the same root, sent along): invalidCertificateChain")
    func signedByAnotherCA() async throws {
        try await expectRefusedSigner(.delegateOtherCA)
    }
}
