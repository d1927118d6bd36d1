/// A verifier cannot be built from the configuration it was given (an unreadable root, an App Apple
/// ID missing for the Production environment, ...).
public struct VerifierConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong and what to do.
    public let message: String

    /// Creates an error with a message saying what is wrong and what to do.
    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
