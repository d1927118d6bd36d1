/// A test fixture that could not be made (a command that failed, a file that is not there): the
/// tests that need it fail with this message.
public struct FixtureError: Error, CustomStringConvertible, Sendable {
    /// What went wrong.
    public let description: String

    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}
