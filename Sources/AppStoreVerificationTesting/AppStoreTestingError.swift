import AppStoreVerification

/// A failure of the testing library: a test PKI that cannot be made, read or written, or signed
/// data that cannot be minted.
///
/// Two errors are equal, and hash alike, when their ``code``s are equal, whatever their messages
/// (and other details) say: compare codes, never messages.
public struct AppStoreTestingError: CodedError, Sendable {
    /// What kind of failure.
    public struct Code: ErrorCode {
        package let text: String
        package init(_ text: String) { self.text = text }

        /// OpenSSL failed to generate a key, make a certificate or sign (an internal failure: the
        /// message carries OpenSSL's words).
        public static let openSSLFailure = Code("openSSLFailure")
        /// A certificate or key given to the library is not usable (not DER, not PEM, wrong kind).
        public static let invalidCertificateOrKey = Code("invalidCertificateOrKey")
        /// A test PKI directory or one of its files cannot be read.
        public static let unreadableFile = Code("unreadableFile")
        /// A test PKI directory or one of its files cannot be written.
        public static let unwritableFile = Code("unwritableFile")
        /// A payload to sign is not a JSON object, or a model cannot be encoded.
        public static let invalidPayload = Code("invalidPayload")
        /// The operation needs what this PKI does not have (for example a variant of a PKI read from
        /// a directory without its CA keys).
        public static let unsupported = Code("unsupported")
    }

    /// What kind of failure.
    public let code: Code
    /// What failed and what to do.
    public let message: String

    /// Creates an error with its code and a message saying what failed and what to do.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

}
