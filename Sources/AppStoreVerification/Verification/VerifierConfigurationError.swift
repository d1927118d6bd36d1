/// A verifier cannot be built from the configuration it was given (an unreadable root, an App Apple
/// ID missing for the Production environment, ...).
///
/// Switch on ``kind`` to tell the cases apart; ``message`` says what is wrong and what to do.
public struct VerifierConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with a configuration.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A certificate (a trusted root, the Xcode certificate) is not one DER certificate, or a
        /// PEM text holds none.
        case invalidCertificate
        /// A certificate file cannot be read.
        case unreadableFile
        /// No trusted root is configured, so nothing could ever verify.
        case noTrustedRoot
        /// The environment is Production and no App Apple ID is configured.
        case missingAppAppleId
        /// A numeric setting is out of range (a non-positive maximum input length, ...).
        case invalidSetting
        /// A certificate has a key the policy cannot use (an Xcode certificate not on P-256, ...).
        case unsupportedKey
        /// OpenSSL failed while setting the verifier up (allocation, ...).
        case openSSLFailure
    }

    /// What is wrong, for a caller to switch on.
    public let kind: Kind
    /// What is wrong and what to do.
    public let message: String

    /// Creates an error of `kind` with a message saying what is wrong and what to do.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
