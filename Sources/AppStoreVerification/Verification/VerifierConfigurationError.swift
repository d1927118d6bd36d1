/// A verifier cannot be built from the configuration it was given (an unreadable root, an App Apple
/// ID missing for the Production environment, ...).
///
/// Compare ``code`` with the codes below to tell the cases apart; ``message`` says what is wrong and
/// what to do.
///
/// Two errors are equal, and hash alike, when their ``code``s are equal, whatever their messages
/// (and other details) say: compare codes, never messages.
public struct VerifierConfigurationError: CodedError, Sendable {
    /// What is wrong with a configuration. Open: later versions may add codes, so a `switch` over
    /// them keeps a `default`.
    public struct Code: ErrorCode {
        package let text: String
        package init(_ text: String) { self.text = text }

        /// A certificate (a trusted root, the Xcode certificate) is not one DER certificate, or a
        /// PEM text holds none.
        public static let invalidCertificate = Code("invalidCertificate")
        /// A certificate file cannot be read.
        public static let unreadableFile = Code("unreadableFile")
        /// No trusted root is configured, so nothing could ever verify.
        public static let noTrustedRoot = Code("noTrustedRoot")
        /// The environment is Production and no App Apple ID is configured.
        public static let missingAppAppleId = Code("missingAppAppleId")
        /// A numeric setting is out of range (a non-positive maximum input length, ...).
        public static let invalidSetting = Code("invalidSetting")
        /// A certificate has a key the policy cannot use (an Xcode certificate not on P-256, ...).
        public static let unsupportedKey = Code("unsupportedKey")
        /// OpenSSL failed while setting the verifier up (allocation, ...).
        public static let openSSLFailure = Code("openSSLFailure")
    }

    /// What is wrong, for a caller to compare.
    public let code: Code
    /// What is wrong and what to do.
    public let message: String

    /// Creates an error with its code and a message saying what is wrong and what to do.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
