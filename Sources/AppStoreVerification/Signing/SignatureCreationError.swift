/// A signature that could not be created with a loaded ``SigningKey``.
///
/// Thrown by the signature creators' `createSignature` methods: the request to sign is not what
/// Apple expects, or OpenSSL failed to sign.
public struct SignatureCreationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The code as text.
        public let rawValue: String
        /// Creates a code from its text.
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The request to sign is not valid: for example an Advanced Commerce request that is not a
        /// JSON object, or that cannot be encoded as JSON.
        public static let invalidRequest = Code(rawValue: "invalidRequest")
        /// OpenSSL failed to produce the signature (an internal failure: retry, and report it if it
        /// persists).
        public static let signingFailed = Code(rawValue: "signingFailed")
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

    public var description: String { "\(code): \(message)" }
}
