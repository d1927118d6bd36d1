import Foundation

/// A root certificate the verifier trusts: chains must end in one of these.
///
/// A root is trusted by its exact bytes and key, never by its name: a certificate in a JWS's `x5c`
/// that merely carries a trusted root's name earns no trust.
public struct TrustedRoot: Sendable, Hashable, CustomStringConvertible {
    /// The certificate's DER encoding.
    public let derEncoded: Data
    /// A name for messages: the certificate's subject.
    public let name: String

    /// Trusts the DER-encoded certificate `derEncoded`.
    ///
    /// - Throws: ``VerifierConfigurationError`` when the bytes are not exactly one DER certificate.
    public init(derEncoded: Data) throws(VerifierConfigurationError) {
        do {
            let certificate = try X509Certificate(derEncoded: derEncoded)
            self.init(embeddedDER: derEncoded, name: certificate.subject)
        } catch {
            throw VerifierConfigurationError(.invalidCertificate, "The trusted root is not a DER certificate: \(error.message).")
        }
    }

    /// Trusts every certificate in a PEM text (`-----BEGIN CERTIFICATE-----` blocks).
    ///
    /// - Throws: ``VerifierConfigurationError`` when the text holds no certificate or a block does not decode.
    public static func roots(pemEncoded pem: String) throws(VerifierConfigurationError) -> [TrustedRoot] {
        let begin = "-----BEGIN CERTIFICATE-----"
        let end = "-----END CERTIFICATE-----"
        var roots: [TrustedRoot] = []
        var rest = Substring(pem)
        while let start = rest.range(of: begin) {
            guard let stop = rest.range(of: end, range: start.upperBound..<rest.endIndex) else {
                throw VerifierConfigurationError(.invalidCertificate, "PEM block \(roots.count + 1) has no \"\(end)\" line.")
            }
            let body = rest[start.upperBound..<stop.lowerBound].utf8.filter { !($0 == 0x20 || (0x09...0x0D).contains($0)) }
            let der: Data
            do {
                der = try Base64.decodeStandard(body)
            } catch {
                throw VerifierConfigurationError(.invalidCertificate, "PEM block \(roots.count + 1) is not valid base64: \(error).")
            }
            roots.append(try TrustedRoot(derEncoded: der))
            rest = rest[stop.upperBound...]
        }
        guard !roots.isEmpty else {
            throw VerifierConfigurationError(.invalidCertificate, "The PEM text holds no \"\(begin)\" block.")
        }
        return roots
    }

    /// Reads trusted roots from a file holding one DER certificate or PEM certificates.
    public static func roots(contentsOf url: URL) throws(VerifierConfigurationError) -> [TrustedRoot] {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw VerifierConfigurationError(.unreadableFile, "Cannot read the root certificate file \(url.path): \(error.localizedDescription)")
        }
        if let text = String(data: data, encoding: .utf8), text.contains("-----BEGIN") {
            return try roots(pemEncoded: text)
        }
        do {
            return [try TrustedRoot(derEncoded: data)]
        } catch {
            throw VerifierConfigurationError(error.code, "\(url.path): \(error.message)")
        }
    }

    /// A root whose bytes ship with the package and are known to parse (tests check it).
    init(embeddedDER: Data, name: String) {
        self.derEncoded = embeddedDER
        self.name = name
    }

    /// The SHA-256 fingerprint of the DER encoding, as colon-separated uppercase hex.
    public var sha256Fingerprint: String {
        // The bytes parsed as a certificate when this root was made, so only a failure of OpenSSL's
        // SHA-256 itself can leave the fingerprint unknown.
        guard let digest = try? Digest.sha256(derEncoded) else { return "unavailable (OpenSSL could not compute SHA-256)" }
        return digest.map { String(format: "%02X", $0) }.joined(separator: ":")
    }

    public var description: String { "\(name) (SHA-256 \(sha256Fingerprint))" }

    /// Two roots are equal when their DER bytes are.
    public static func == (lhs: TrustedRoot, rhs: TrustedRoot) -> Bool { lhs.derEncoded == rhs.derEncoded }
    /// Hashes the DER bytes.
    public func hash(into hasher: inout Hasher) { hasher.combine(derEncoded) }
}
