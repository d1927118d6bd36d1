import AppStoreVerification
import Foundation

/// Checks an App Store Server API bearer token as Apple documents it
/// (<https://developer.apple.com/documentation/appstoreserverapi/generating-json-web-tokens-for-api-requests>):
/// a compact JWS with header `alg` ES256, `kid` the key's ID and `typ` JWT, signed by the
/// configured key, and claims `iss` the issuer ID, `aud` `appstoreconnect-v1`, `bid` the bundle
/// ID, `iat` and `exp` with `exp` in the future and at most an hour after `iat`.
struct BearerTokenCheck: Sendable {
    let keyId: String
    let issuerId: String
    let bundleId: String
    let publicKey: PublicKey

    /// Why `authorization` (the whole header value) is refused, or `nil` for a good token.
    func refusal(of authorization: String?, now: Date = Date()) -> String? {
        guard let authorization, authorization.hasPrefix("Bearer ") else { return "no bearer token (Authorization: Bearer TOKEN)" }
        let token = authorization.dropFirst("Bearer ".count)
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3,
              let headerData = try? Base64.decodeURL(parts[0].utf8), let claimsData = try? Base64.decodeURL(parts[1].utf8),
              let signature = try? Base64.decodeURL(parts[2].utf8),
              let header = (try? JSONSerialization.jsonObject(with: headerData)) as? [String: Any],
              let claims = (try? JSONSerialization.jsonObject(with: claimsData)) as? [String: Any]
        else { return "the token is not a compact JWS with JSON header and claims" }
        guard header["alg"] as? String == "ES256" else { return "alg is not ES256" }
        guard header["typ"] as? String == "JWT" else { return "typ is not JWT" }
        guard header["kid"] as? String == keyId else { return "kid is not the key ID \(keyId)" }
        do {
            try publicKey.verifyES256(signature: signature, over: Array("\(parts[0]).\(parts[1])".utf8))
        } catch {
            return "the signature does not verify with the configured public key"
        }
        guard claims["aud"] as? String == "appstoreconnect-v1" else { return "aud is not appstoreconnect-v1" }
        guard claims["iss"] as? String == issuerId else { return "iss is not the issuer ID \(issuerId)" }
        guard claims["bid"] as? String == bundleId else { return "bid is not the bundle ID \(bundleId)" }
        guard let exp = (claims["exp"] as? NSNumber)?.int64Value, let iat = (claims["iat"] as? NSNumber)?.int64Value else {
            return "exp or iat is missing or not a number"
        }
        guard exp > Int64(now.timeIntervalSince1970) else { return "the token expired (exp)" }
        guard exp > iat, exp - iat <= 3600 else { return "the token's lifetime (exp - iat) is not within an hour" }
        return nil
    }
}
