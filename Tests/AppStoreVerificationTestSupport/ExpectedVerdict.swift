/// The verdict a vector of `TestVectors/` expects: its status (`verified`, `unverified`,
/// `malformed`) and, when it fails, its error code.
public struct ExpectedVerdict: Decodable, Sendable {
    public var status: String
    public var code: String?
}
