import Foundation

/// What the three JWS signature creators share (Apple's `JWSSignatureCreator`): the key, its
/// identifier, the issuer, the bundle ID and the audience, and the claims every such JWS carries.
///
/// The JWS: header `{"alg":"ES256","kid":KEY_ID,"typ":"JWT"}`; claims the feature's own, then
/// `bid`, `iss`, `aud`, `iat` (seconds since 1970) and `nonce` (a lowercase UUID), in the order
/// Apple's Python library writes them.
struct AppStoreRequestSigner: Sendable {
    let signer: JWSSigner
    let audience: String
    let keyId: String
    let issuerId: String
    let bundleId: String

    init(audience: String, key: SigningKey, keyId: String, issuerId: String, bundleId: String) {
        self.signer = JWSSigner(key: key)
        self.audience = audience
        self.keyId = keyId
        self.issuerId = issuerId
        self.bundleId = bundleId
    }

    /// The claims of one JWS: `featureClaims`, then the common ones.
    func claims(_ featureClaims: SignedJSONObject, nonce: UUID, issuedAt: Date) -> SignedJSONObject {
        var claims = featureClaims
        claims.set("bid", .string(bundleId))
        claims.set("iss", .string(issuerId))
        claims.set("aud", .string(audience))
        claims.set("iat", .integer(Self.seconds(issuedAt)))
        claims.set("nonce", .string(nonce.lowercasedText))
        return claims
    }

    /// Signs `featureClaims` with the common claims.
    func createSignature(_ featureClaims: SignedJSONObject, nonce: UUID?, issuedAt: Date) throws(SignatureCreationError) -> String {
        try signer.sign(header: JWSSigner.jwtHeader(keyId: keyId), claims: claims(featureClaims, nonce: nonce ?? .randomNonce(), issuedAt: issuedAt))
    }

    /// Whole seconds since 1970, rounded down (as PyJWT writes a `datetime`).
    static func seconds(_ date: Date) -> Int64 {
        let value = date.timeIntervalSince1970.rounded(.down)
        guard value.isFinite, value > -9e15, value < 9e15 else { return 0 }
        return Int64(value)
    }
}
