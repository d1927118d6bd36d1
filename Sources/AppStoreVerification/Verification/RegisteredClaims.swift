import Foundation

/// JWT registered claims (RFC 7519 section 4.1) in a payload.
///
/// App Store payloads carry none, but Apple's library decodes them with PyJWT, which honours them:
/// a payload that says it expired (`exp`), is not valid yet (`nbf`, `iat`), is meant for an
/// audience (`aud`), or has a malformed `sub` or `jti` is refused there, so it is refused here too.
enum RegisteredClaims {
    /// Why the payload's registered claims make it unacceptable at `now`, or `nil`.
    static func failure(in payload: JSONDocument, now: Date) -> VerificationError? {
        let seconds = now.timeIntervalSince1970
        func number(_ name: String) -> Result<Double?, VerificationError> {
            guard let index = payload.member(name, in: 0) else { return .success(nil) }
            guard payload.nodes[index].kind == .number, let value = payload.double(at: index) else {
                return .failure(.invalidEncoding("The payload's JWT claim \"\(name)\" is not a number of seconds (RFC 7519 section 4.1)."))
            }
            return .success(value)
        }
        switch number("exp") {
        case .failure(let error): return error
        case .success(let exp?) where exp <= seconds:
            return .invalidEncoding("The payload's JWT claim \"exp\" (\(DateText.iso8601(seconds: Int64(exp)))) has passed: the signer says it expired.")
        default: break
        }
        switch number("nbf") {
        case .failure(let error): return error
        case .success(let nbf?) where nbf > seconds:
            return .invalidEncoding("The payload's JWT claim \"nbf\" (\(DateText.iso8601(seconds: Int64(nbf)))) is in the future: the signer says it is not valid yet.")
        default: break
        }
        switch number("iat") {
        case .failure(let error): return error
        case .success(let iat?) where iat > seconds:
            return .invalidEncoding("The payload's JWT claim \"iat\" (\(DateText.iso8601(seconds: Int64(iat)))) is in the future.")
        default: break
        }
        if payload.member("aud", in: 0) != nil {
            return .invalidEncoding("The payload carries a JWT audience (\"aud\"); App Store data is meant for no audience, and an audience this verifier was not told to expect is refused.")
        }
        for name in ["sub", "jti"] {
            if let index = payload.member(name, in: 0), payload.nodes[index].kind != .string {
                return .invalidEncoding("The payload's JWT claim \"\(name)\" is not a string (RFC 7519 section 4.1).")
            }
        }
        return nil
    }
}
