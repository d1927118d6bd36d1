import Foundation

/// The protected header of an App Store JWS, reduced to what verification reads.
///
/// Only `alg`, `x5c`, `crit`, `kid` (its type) and `b64` matter. Key-locating parameters (`jwk`,
/// `jku`, `x5u`, `kid`, `x5t`) are never trusted or fetched: the key always comes from the `x5c`
/// leaf after its chain has been validated against the configured roots.
///
/// Error categories: a header that does not decode, is not a JSON object, lacks `alg` or has a
/// non-string `alg`, has a non-string `kid`, `b64` other than true, or any `crit` is
/// ``VerificationError/invalidEncoding(_:)`` (the JWS is not well-formed for App Store data); an
/// `alg` other than ES256 is ``VerificationError/invalidSignature(_:)`` (the signature is not one
/// this verifier may check: algorithm substitution); a missing or malformed `x5c` is
/// ``VerificationError/invalidCertificateChain(_:)``.
package struct JWSHeader: Sendable {
    /// The only algorithm App Store data is signed with.
    static let supportedAlgorithm = "ES256"

    /// The `x5c` parameter, each entry decoded from standard base64 to DER; `nil` when absent.
    let certificateChain: [Data]?

    /// The `x5c` chain.
    ///
    /// - Throws: `invalidCertificateChain` when the header has none.
    package func requireCertificateChain() throws(VerificationError) -> [Data] {
        guard let certificateChain else {
            throw .invalidCertificateChain("The JWS header has no \"x5c\" certificate chain; App Store data carries [leaf, intermediate, root] there.")
        }
        return certificateChain
    }

    /// Reads and checks the header of `jws`.
    ///
    /// - Throws: the ``VerificationError`` that makes the JWS unverifiable.
    package init(of jws: CompactJWS) throws(VerificationError) {
        let headerData: Data
        do {
            headerData = try Base64.decodeURL(jws.headerSegment.utf8)
        } catch {
            throw .invalidEncoding("The JWS header segment is not base64url without padding: \(error).")
        }
        let header: JSONValue
        do {
            header = try JSONParser.parse(Array(headerData)).root
        } catch {
            throw .invalidEncoding("The JWS header is not valid JSON: \(error).")
        }
        guard header.isObject else {
            throw .invalidEncoding("The JWS header is JSON but not a JSON object.")
        }

        guard let algorithm = header.member("alg") else {
            throw .invalidEncoding("The JWS header has no \"alg\" (RFC 7515 section 4.1.1 requires it); App Store data is signed with ES256.")
        }
        guard let name = algorithm.string else {
            throw .invalidEncoding("The JWS header says \"alg\": \(algorithm.excerpt); RFC 7515 section 4.1.1 makes it a string, and App Store data says \"ES256\".")
        }
        guard name == Self.supportedAlgorithm else {
            throw .invalidSignature("The JWS header says \"alg\": \(algorithm.excerpt); App Store data is signed with ES256 only, so nothing else is accepted.")
        }
        // "kid" is never used, but it must be a string (RFC 7515 section 4.1.4), as Apple's library
        // requires.
        if let kid = header.member("kid"), kid.string == nil {
            throw .invalidEncoding("The JWS header's \"kid\" is \(kid.excerpt); RFC 7515 section 4.1.4 makes it a string.")
        }
        // An unencoded payload (RFC 7797 "b64": false) changes what the signature covers; App Store
        // data never uses it, and Apple's library refuses it, so it is refused rather than ignored.
        if let b64 = header.member("b64"), b64.bool != true {
            throw .invalidEncoding("The JWS header says \"b64\": \(b64.excerpt) (RFC 7797 unencoded payload), which App Store data never uses.")
        }
        if let critical = header.member("crit") {
            // RFC 7515 4.1.11: a recipient must reject a JWS whose "crit" names an extension it does
            // not understand; this verifier understands none.
            throw .invalidEncoding("The JWS header marks \(critical.excerpt) as critical (\"crit\"); this verifier understands no header extensions, so it must reject the JWS (RFC 7515 section 4.1.11).")
        }
        guard let chain = header.member("x5c") else {
            self.certificateChain = nil
            return
        }
        guard chain.isArray else {
            throw .invalidCertificateChain("The JWS header's \"x5c\" is not an array of certificates.")
        }
        var certificates: [Data] = []
        for (position, entry) in chain.elements.enumerated() {
            guard let text = entry.string else {
                throw .invalidCertificateChain("x5c[\(position)] is not a string.")
            }
            do {
                certificates.append(try Base64.decodeStandard(text.utf8))
            } catch {
                throw .invalidCertificateChain("x5c[\(position)] is not standard base64 with padding (RFC 7515 section 4.1.6): \(error).")
            }
        }
        self.certificateChain = certificates
    }
}
