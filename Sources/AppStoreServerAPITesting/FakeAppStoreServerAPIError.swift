/// Why a ``FakeAppStoreServerAPI`` cannot start: a public key it cannot read, or no port to listen
/// on. The message says what to do.
public struct FakeAppStoreServerAPIError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What failed and what to do.
    public let message: String

    /// An error with its message.
    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
