/// A private key that cannot be used for signing: unreadable, not a PEM private key, encrypted, or
/// not a P-256 key.
///
/// Thrown by ``SigningKey`` and by the signature creators' initializers. The message never contains
/// key material.
public struct SigningKeyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with the key.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The code as text.
        public let rawValue: String
        /// Creates a code from its text.
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The key file cannot be read (missing, not a regular file, no permission, too large).
        public static let unreadableFile = Code(rawValue: "unreadableFile")
        /// No PEM private key could be read from the text (empty, garbage, a damaged PEM block, or a
        /// PEM block holding something else, such as a public key or a certificate).
        public static let malformedKey = Code(rawValue: "malformedKey")
        /// The PEM private key is encrypted. No password is ever asked for: decrypt it first.
        public static let encryptedKey = Code(rawValue: "encryptedKey")
        /// A private key, but not an elliptic-curve key on P-256 (the only kind App Store Connect
        /// issues, and the only kind ES256 allows).
        public static let unsupportedKey = Code(rawValue: "unsupportedKey")
        /// A P-256 key that is not a valid key pair: a private scalar of 0 or not below the
        /// curve's order, or a public key that does not belong to the private scalar.
        public static let invalidKey = Code(rawValue: "invalidKey")
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

    public var description: String { "\(code): \(message)" }
}
