import Foundation

/// Makes compact ES256 JWS (RFC 7515) with a ``SigningKey``: `base64url(header) "." base64url(payload)
/// "." base64url(r || s)`, no padding.
///
/// Reusable for every JWS this library signs: the App Store request signatures (promotional offer
/// V2, introductory offer eligibility, Advanced Commerce) and App Store Server API bearer tokens.
package struct JWSSigner: Sendable {
    package let key: SigningKey

    /// A signer with `key`.
    package init(key: SigningKey) { self.key = key }

    /// The header for a JWT signed with ES256 and key identifier `keyId`:
    /// `{"alg":"ES256","kid":...,"typ":"JWT"}` (sorted names, as PyJWT writes it).
    package static func jwtHeader(keyId: String) -> SignedJSONObject {
        var header = SignedJSONObject()
        header.set("alg", .string("ES256"))
        header.set("kid", .string(keyId))
        header.set("typ", .string("JWT"))
        return header
    }

    /// Signs `payload` under `header`. The header must name `alg` ES256 (checked).
    package func sign(header: SignedJSONObject, payload: some ContiguousBytes) throws(SignatureCreationError) -> String {
        guard header["alg"] == .string("ES256") else {
            throw SignatureCreationError(.signingFailed, "a JWS signed with a P-256 key must have the header alg ES256")
        }
        return try sign(encodedHeader: Base64.encodeURL(header.utf8), payload: payload)
    }

    /// Signs `payload` under a header already base64url-encoded (the Testing product's minter
    /// encodes its `x5c` header once); the header must name `alg` ES256 (not checked).
    package func sign(encodedHeader: String, payload: some ContiguousBytes) throws(SignatureCreationError) -> String {
        let signingInput = encodedHeader + "." + Base64.encodeURL(payload)
        let signature: Data
        do {
            signature = try key.sign(Array(signingInput.utf8), encoding: .raw)
        } catch {
            throw SignatureCreationError(.signingFailed, "ES256 signing failed: \(error.message)")
        }
        return signingInput + "." + Base64.encodeURL(signature)
    }

    /// Signs the JSON object `claims` under `header`.
    package func sign(header: SignedJSONObject, claims: SignedJSONObject) throws(SignatureCreationError) -> String {
        try sign(header: header, payload: claims.utf8)
    }
}
