/// A private key that cannot be used for signing: unreadable, not a PEM private key, encrypted, or
/// not a P-256 key.
///
/// Thrown by ``SigningKey`` and by the signature creators' initializers. The message never contains
/// key material.
///
/// Two errors are equal, and hash alike, when their ``code``s are equal, whatever their messages
/// (and other details) say: compare codes, never messages.
public struct SigningKeyError: CodedError, Sendable {
    /// What is wrong with the key.
    public struct Code: ErrorCode {
        package let text: String
        package init(_ text: String) { self.text = text }

        /// The key file cannot be read (missing, not a regular file, no permission, too large).
        public static let unreadableFile = Code("unreadableFile")
        /// No PEM private key could be read from the text (empty, garbage, a damaged PEM block, or a
        /// PEM block holding something else, such as a public key or a certificate).
        public static let malformedKey = Code("malformedKey")
        /// The PEM private key is encrypted. No password is ever asked for: decrypt it first.
        public static let encryptedKey = Code("encryptedKey")
        /// A private key, but not an elliptic-curve key on P-256 (the only kind App Store Connect
        /// issues, and the only kind ES256 allows).
        public static let unsupportedKey = Code("unsupportedKey")
        /// A P-256 key that is not a valid key pair: a private scalar of 0 or not below the
        /// curve's order, or a public key that does not belong to the private scalar.
        public static let invalidKey = Code("invalidKey")
    }

    /// What is wrong with the key.
    public let code: Code
    /// What failed and what to do.
    public let message: String

    /// Creates an error with its code and a message saying what failed and what to do.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

}
