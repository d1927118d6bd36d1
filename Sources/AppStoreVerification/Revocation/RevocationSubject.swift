internal import CAppStoreOpenSSL
import Foundation

/// One certificate whose revocation status is asked, with its issuer and its responder.
struct RevocationSubject: Sendable {
    let certificate: X509Certificate
    let issuer: X509Certificate
    /// Which certificate this is, for messages: "the leaf (x5c[0], CN=...)".
    let position: String
    /// The responder URL from the certificate's Authority Information Access, or why there is no
    /// usable one (a permanent condition).
    let responder: Result<URL, VerificationError>
    let cacheKey: OCSPCacheKey

    init(certificate: X509Certificate, issuer: X509Certificate, position: String) {
        self.certificate = certificate
        self.issuer = issuer
        self.position = position
        self.cacheKey = OCSPCacheKey(certificate: certificate, issuer: issuer)
        self.responder = Self.responderURL(of: certificate, position: position)
    }

    /// The first `http://` OCSP responder URL the certificate names.
    private static func responderURL(of certificate: X509Certificate, position: String) -> Result<URL, VerificationError> {
        var buffer = [CChar](repeating: 0, count: 1024)
        var error = asv_error()
        let found = buffer.withUnsafeMutableBufferPointer { asv_ocsp_responder_url(certificate.pointer, $0.baseAddress, $0.count, &error) }
        guard found == 1 else {
            if found == 0 {
                return .failure(.invalidCertificateChain("Online checks are on, but \(position) names no OCSP responder in its Authority Information Access extension, so its revocation status cannot be checked."))
            }
            return .failure(.invalidCertificateChain("The OCSP responder URL of \(position) cannot be read: \(OpenSSLFailure(error).message)."))
        }
        let text = String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard text.lowercased().hasPrefix("http://"), let url = URL(string: text), url.host != nil else {
            return .failure(.invalidCertificateChain("\(position) names the OCSP responder \"\(text)\"; only http:// responders are asked (OCSP answers are signed, and Apple's responders are plain HTTP)."))
        }
        return .success(url)
    }
}

/// The two certificates of a validated App Store chain whose revocation status online mode checks.
///
/// A class: the warm path reads it from a cache on every verification, and a reference is one
/// retain where the two subjects' fields are a dozen.
final class RevocationSubjects: Sendable {
    /// The leaf, issued by the intermediate.
    let leaf: RevocationSubject
    /// The intermediate, issued by the trusted root its path was validated to.
    let intermediate: RevocationSubject

    init(leaf: RevocationSubject, intermediate: RevocationSubject) {
        self.leaf = leaf
        self.intermediate = intermediate
    }

    /// The subjects of a JWS chain the offline checks validated: its parsed certificates, no
    /// certificate read again.
    static func of(_ chain: ValidatedChain) -> Result<RevocationSubjects, VerificationError> {
        of(chain, leaf: "the leaf (x5c[0], \(chain.leaf.subject))", intermediate: "the intermediate (x5c[1], \(chain.intermediate.subject))",
           noRoot: "No configured trusted root issued the intermediate (x5c[1], \(chain.intermediate.subject))")
    }

    /// The subjects of an app receipt's chain the offline checks validated.
    static func of(receiptChain chain: ValidatedChain) -> Result<RevocationSubjects, VerificationError> {
        of(chain, leaf: "the receipt's signing certificate (\(chain.leaf.subject))", intermediate: "the receipt's intermediate (\(chain.intermediate.subject))",
           noRoot: "The receipt's intermediate (\(chain.intermediate.subject)) was validated to no configured receipt root")
    }

    /// The leaf (issued by the intermediate) and the intermediate (issued by the root its path was
    /// validated to), named for messages.
    private static func of(_ chain: ValidatedChain, leaf: String, intermediate: String, noRoot: String) -> Result<RevocationSubjects, VerificationError> {
        guard let root = chain.root else {
            return .failure(.invalidCertificateChain("\(noRoot), so its revocation status cannot be asked."))
        }
        return .success(RevocationSubjects(
            leaf: RevocationSubject(certificate: chain.leaf, issuer: chain.intermediate, position: leaf),
            intermediate: RevocationSubject(certificate: chain.intermediate, issuer: root, position: intermediate)))
    }
}
