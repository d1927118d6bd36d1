/// A signature that could not be created with a loaded ``SigningKey``.
///
/// Thrown by the signature creators' `createSignature` methods: the request to sign is not what
/// Apple expects, or OpenSSL failed to sign.
///
/// Two errors are equal, and hash alike, when their ``code``s are equal, whatever their messages
/// (and other details) say: compare codes, never messages.
public struct SignatureCreationError: CodedError, Sendable {
    /// What kind of failure.
    public struct Code: ErrorCode {
        package let text: String
        package init(_ text: String) { self.text = text }

        /// The request to sign is not valid: for example an Advanced Commerce request that is not a
        /// JSON object, or that cannot be encoded as JSON.
        public static let invalidRequest = Code("invalidRequest")
        /// OpenSSL failed to produce the signature (an internal failure: retry, and report it if it
        /// persists).
        public static let signingFailed = Code("signingFailed")
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
