import Foundation

/// The protected header of an App Store JWS, reduced to what verification reads.
///
/// Only `alg`, `x5c` and `crit` matter. Key-locating parameters (`jwk`, `jku`, `x5u`, `kid`,
/// `x5t`) are never read, trusted or fetched: the key always comes from the `x5c` leaf after its
/// chain has been validated against the configured roots.
struct JWSHeader: Sendable {
    /// The only algorithm App Store data is signed with.
    static let supportedAlgorithm = "ES256"

    /// The `alg` parameter.
    let algorithm: String
    /// The `x5c` parameter, each entry decoded from standard base64 to DER; `nil` when absent.
    let certificateChain: [Data]?

    /// The `x5c` chain, or the error that says it is missing.
    func requireCertificateChain() -> Result<[Data], VerificationError> {
        guard let certificateChain else {
            return .failure(.invalidCertificateChain("The JWS header has no \"x5c\" certificate chain; App Store data carries [leaf, intermediate, root] there."))
        }
        return .success(certificateChain)
    }

    /// Reads and checks the header of `jws`.
    ///
    /// - Returns: the header, or the ``VerificationError`` that makes the JWS unverifiable.
    static func parse(_ jws: CompactJWS) -> Result<JWSHeader, VerificationError> {
        let headerData: Data
        do {
            headerData = try Base64.decodeURL(jws.headerSegment.utf8)
        } catch {
            return .failure(.invalidEncoding("The JWS header segment is not base64url without padding: \(error)."))
        }
        let header: JSONDocument
        do {
            header = try JSONParser.parse(Array(headerData))
        } catch {
            return .failure(.invalidEncoding("The JWS header is not valid JSON: \(error)."))
        }
        guard header.nodes[0].kind == .object else {
            return .failure(.invalidEncoding("The JWS header is JSON but not a JSON object."))
        }

        guard let algorithmIndex = header.member("alg", in: 0) else {
            return .failure(.invalidSignature("The JWS header has no \"alg\"; App Store data is signed with ES256."))
        }
        guard header.nodes[algorithmIndex].kind == .string, header.string(at: algorithmIndex) == supportedAlgorithm else {
            return .failure(.invalidSignature("The JWS header says \"alg\": \(header.excerpt(at: algorithmIndex)); App Store data is signed with ES256 only, so nothing else is accepted."))
        }
        // "kid" is never used, but it must be a string (RFC 7515 section 4.1.4), as Apple's library
        // requires.
        if let index = header.member("kid", in: 0), header.nodes[index].kind != .string {
            return .failure(.invalidEncoding("The JWS header's \"kid\" is \(header.excerpt(at: index)); RFC 7515 section 4.1.4 makes it a string."))
        }
        // An unencoded payload (RFC 7797 "b64": false) changes what the signature covers; App Store
        // data never uses it, and Apple's library refuses it, so it is refused rather than ignored.
        if let index = header.member("b64", in: 0), header.nodes[index].kind != .true {
            return .failure(.invalidEncoding("The JWS header says \"b64\": \(header.excerpt(at: index)) (RFC 7797 unencoded payload), which App Store data never uses."))
        }
        if let index = header.member("crit", in: 0) {
            // RFC 7515 4.1.11: a recipient must reject a JWS whose "crit" names an extension it does
            // not understand; this verifier understands none.
            return .failure(.invalidEncoding("The JWS header marks \(header.excerpt(at: index)) as critical (\"crit\"); this verifier understands no header extensions, so it must reject the JWS (RFC 7515 section 4.1.11)."))
        }
        guard let chainIndex = header.member("x5c", in: 0) else {
            return .success(JWSHeader(algorithm: supportedAlgorithm, certificateChain: nil))
        }
        guard header.nodes[chainIndex].kind == .array else {
            return .failure(.invalidCertificateChain("The JWS header's \"x5c\" is not an array of certificates."))
        }
        var chain: [Data] = []
        for (position, index) in header.elements(of: chainIndex).enumerated() {
            guard header.nodes[index].kind == .string else {
                return .failure(.invalidCertificateChain("x5c[\(position)] is not a string."))
            }
            do {
                chain.append(try Base64.decodeStandard(header.string(at: index).utf8))
            } catch {
                return .failure(.invalidCertificateChain("x5c[\(position)] is not standard base64 with padding (RFC 7515 section 4.1.6): \(error)."))
            }
        }
        return .success(JWSHeader(algorithm: supportedAlgorithm, certificateChain: chain))
    }
}
