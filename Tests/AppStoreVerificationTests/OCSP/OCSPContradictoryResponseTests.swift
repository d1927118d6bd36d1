import COpenSSL
import Foundation
import Testing
@testable import AppStoreVerification

/// A response signed by the issuer (through OpenSSL) that answers the leaf's CertID twice: however
/// its SingleResponses disagree or agree, no answer is taken from it.
@Suite("OCSP: a response that answers one certificate twice is refused")
struct OCSPContradictoryResponseTests {
    /// The CertID hash algorithms of the SingleResponses: SHA-1 (what the verifier asks with) and SHA-256.
    enum CertIDHash: String, CaseIterable, Sendable {
        case sha1, sha256
        var digest: OpaquePointer? { self == .sha1 ? EVP_sha1() : EVP_sha256() }
    }

    /// A DER OCSPResponse signed by the minted intermediate, with one SingleResponse per status in
    /// `statuses`, each for the minted leaf (its CertID under `hashes[i]`, SHA-1 when not given).
    static func response(_ pki: AppleOracle.MintedPKI, statuses: [Int32], hashes: [CertIDHash] = [], now: Int64) throws -> Data {
        guard let basic = OCSP_BASICRESP_new() else { throw OracleFailure("OCSP_BASICRESP_new") }
        defer { OCSP_BASICRESP_free(basic) }
        guard let thisUpdate = ASN1_TIME_set(nil, time_t(now - 60)), let nextUpdate = ASN1_TIME_set(nil, time_t(now + 3600)),
              let revokedAt = ASN1_TIME_set(nil, time_t(now - 600))
        else { throw OracleFailure("ASN1_TIME_set") }
        defer { ASN1_TIME_free(thisUpdate); ASN1_TIME_free(nextUpdate); ASN1_TIME_free(revokedAt) }
        for (index, status) in statuses.enumerated() {
            let hash = index < hashes.count ? hashes[index] : .sha1
            guard let id = OCSP_cert_to_id(hash.digest, pki.leaf.pointer, pki.intermediate.pointer) else { throw OracleFailure("OCSP_cert_to_id") }
            defer { OCSP_CERTID_free(id) }
            let revoked = status == V_OCSP_CERTSTATUS_REVOKED
            guard OCSP_basic_add1_status(basic, id, status, revoked ? 1 : -1, revoked ? revokedAt : nil, thisUpdate, nextUpdate) != nil else {
                throw OracleFailure("OCSP_basic_add1_status")
            }
        }
        guard OCSP_basic_sign(basic, pki.intermediate.pointer, pki.intermediateKey.pointer, EVP_sha256(), nil, 0) == 1,
              let response = OCSP_response_create(OCSP_RESPONSE_STATUS_SUCCESSFUL, basic)
        else { throw OracleFailure("OCSP_basic_sign") }
        defer { OCSP_RESPONSE_free(response) }
        let length = i2d_OCSP_RESPONSE(response, nil)
        guard length > 0 else { throw OracleFailure("i2d_OCSP_RESPONSE") }
        var bytes = [UInt8](repeating: 0, count: Int(length))
        bytes.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            _ = i2d_OCSP_RESPONSE(response, &cursor)
        }
        return Data(bytes)
    }

    static func judge(_ statuses: [Int32], hashes: [CertIDHash] = []) throws -> OCSPOutcome {
        let pki = try AppleOracle.MintedPKI()
        let now = Int64(Date().timeIntervalSince1970)
        let subject = RevocationSubject(
            certificate: try X509Certificate(derEncoded: pki.leaf.der), issuer: try X509Certificate(derEncoded: pki.intermediate.der),
            position: "the leaf (x5c[0])")
        let exchange = OCSPExchange(subject: subject, url: URL(string: "http://127.0.0.1:1/")!, nonce: nil)
        return exchange.judge(try response(pki, statuses: statuses, hashes: hashes, now: now), now: now, options: OCSPOptions())
    }

    @Test("one SingleResponse each: good is good, revoked is revoked (the fixture is sound)")
    func single() throws {
        guard case .answer(let good) = try Self.judge([V_OCSP_CERTSTATUS_GOOD]), case .good = good.status else {
            Issue.record("a good answer was not good")
            return
        }
        guard case .answer(let revoked) = try Self.judge([V_OCSP_CERTSTATUS_REVOKED]), case .revoked = revoked.status else {
            Issue.record("a revoked answer was not revoked")
            return
        }
    }

    @Test("good then revoked, revoked then good, good twice: invalidCertificateChain naming the repetition",
          arguments: [[V_OCSP_CERTSTATUS_GOOD, V_OCSP_CERTSTATUS_REVOKED], [V_OCSP_CERTSTATUS_REVOKED, V_OCSP_CERTSTATUS_GOOD],
                      [V_OCSP_CERTSTATUS_GOOD, V_OCSP_CERTSTATUS_GOOD]])
    func repeated(_ statuses: [Int32]) throws {
        let outcome = try Self.judge(statuses)
        guard case .invalid(.invalidCertificateChain(let message)) = outcome else {
            Issue.record("\(statuses): expected invalidCertificateChain, got \(outcome)")
            return
        }
        #expect(message.contains("more than once"), "\(message)")
    }

    @Test("SHA-1 good beside SHA-256 revoked (and the reverse, and agreeing): refused, whatever the order",
          arguments: [([V_OCSP_CERTSTATUS_GOOD, V_OCSP_CERTSTATUS_REVOKED], [CertIDHash.sha1, .sha256]),
                      ([V_OCSP_CERTSTATUS_REVOKED, V_OCSP_CERTSTATUS_GOOD], [CertIDHash.sha256, .sha1]),
                      ([V_OCSP_CERTSTATUS_GOOD, V_OCSP_CERTSTATUS_GOOD], [CertIDHash.sha256, .sha1])])
    func repeatedUnderAnotherHash(_ statuses: [Int32], _ hashes: [CertIDHash]) throws {
        let outcome = try Self.judge(statuses, hashes: hashes)
        guard case .invalid(.invalidCertificateChain(let message)) = outcome else {
            Issue.record("\(statuses) under \(hashes): expected invalidCertificateChain, got \(outcome)")
            return
        }
        #expect(message.contains("another hash algorithm"), "\(message)")
    }

    @Test("one SingleResponse under SHA-256 only: no answer for the SHA-1 CertID asked about")
    func onlyAnotherHash() throws {
        let outcome = try Self.judge([V_OCSP_CERTSTATUS_GOOD], hashes: [.sha256])
        guard case .invalid(.invalidCertificateChain) = outcome else {
            Issue.record("expected invalidCertificateChain, got \(outcome)")
            return
        }
    }
}
