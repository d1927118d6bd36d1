import ArgumentParser

/// `verify-jws api --format`: verdicts as verify-jws writes them, or the signed items themselves.
enum APIOutputFormat: String, CaseIterable, Sendable, ExpressibleByArgument {
    /// One JSON object per signed item, as `verify-jws --format json` writes.
    case json
    /// As `verify-jws --format text` writes, for people.
    case text
    /// The signed items (JWS) themselves, one per line: input for `verify-jws` and
    /// `verify-jws entitlements`.
    case jws
}
