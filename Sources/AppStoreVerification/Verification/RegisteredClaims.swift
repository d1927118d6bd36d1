import Foundation

/// JWT registered claims (RFC 7519 section 4.1) in a payload.
///
/// App Store payloads carry none, but Apple's library decodes them with PyJWT, which honours them:
/// a payload that says it expired (`exp`), is not valid yet (`nbf`, `iat`), or is meant for an
/// audience (`aud`) is refused there, so it is refused here too, as
/// ``VerificationError/invalidClaims(_:)``. A claim of the wrong type (`exp` not a number, `sub` or
/// `jti` not a string) is ``VerificationError/invalidEncoding(_:)``.
enum RegisteredClaims {
    /// Checks the payload's registered claims at `now`.
    ///
    /// - Throws: why they make the payload unacceptable.
    static func check(_ payload: JSONValue, now: Date) throws(VerificationError) {
        let seconds = now.timeIntervalSince1970
        if let exp = try number("exp", in: payload), exp <= seconds {
            throw .invalidClaims("The payload's JWT claim \"exp\" (\(DateText.iso8601(secondsSince1970: exp))) has passed: the signer says it expired.")
        }
        if let nbf = try number("nbf", in: payload), nbf > seconds {
            throw .invalidClaims("The payload's JWT claim \"nbf\" (\(DateText.iso8601(secondsSince1970: nbf))) is in the future: the signer says it is not valid yet.")
        }
        if let iat = try number("iat", in: payload), iat > seconds {
            throw .invalidClaims("The payload's JWT claim \"iat\" (\(DateText.iso8601(secondsSince1970: iat))) is in the future.")
        }
        if payload.member("aud") != nil {
            throw .invalidClaims("The payload carries a JWT audience (\"aud\"); App Store data is meant for no audience, and an audience this verifier was not told to expect is refused.")
        }
        for name in ["sub", "jti"] {
            if let claim = payload.member(name), claim.string == nil {
                throw .invalidEncoding("The payload's JWT claim \"\(name)\" is not a string (RFC 7519 section 4.1).")
            }
        }
    }

    /// The claim `name` as a number of seconds, `nil` when absent.
    private static func number(_ name: String, in payload: JSONValue) throws(VerificationError) -> Double? {
        guard let claim = payload.member(name) else { return nil }
        guard let value = claim.double else {
            throw .invalidEncoding("The payload's JWT claim \"\(name)\" is not a number of seconds (RFC 7519 section 4.1).")
        }
        return value
    }
}
