/// The verdict a vector of `TestVectors/` expects: its status (`verified`, `unverified`,
/// `malformed`) and, when it fails, its error code.
public struct ExpectedVerdict: Decodable, Sendable {
    /// `verified`, `unverified` or `malformed`.
    public var status: String
    /// The error code expected when the vector fails.
    public var code: String?
}
