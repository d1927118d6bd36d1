import AppStoreVerification

/// Why a ``FakeAppStoreServerAPI`` cannot start: a public key it cannot read, or no port to listen
/// on. The message says what to do.
///
/// Two errors are equal, and hash alike, when their ``code``s are equal, whatever their messages
/// say: compare codes, never messages.
public struct FakeAppStoreServerAPIError: CodedError, Sendable {
    /// Why the fake cannot start.
    public struct Code: ErrorCode {
        package let text: String
        package init(_ text: String) { self.text = text }

        /// The public key is not a DER SubjectPublicKeyInfo of a P-256 key.
        public static let invalidPublicKey = Code("invalidPublicKey")
        /// No socket could listen on 127.0.0.1.
        public static let cannotListen = Code("cannotListen")
    }

    /// Why the fake cannot start.
    public let code: Code
    /// What failed and what to do.
    public let message: String

    /// Creates an error with its code and a message saying what failed and what to do.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }
}
