/// Input that cannot be decoded at all: there is no payload to hand back, verified or not.
///
/// Thrown by the verifier's entry points for text that is not a compact JWS, a payload that is not a
/// JSON object, a payload whose fields have the wrong types, input over the size limit, or a payload
/// of another kind than the entry point decodes.
///
/// Two errors are equal, and hash alike, when their ``code``s are equal, whatever their messages
/// (and other details) say: compare codes, never messages.
public struct SignedDataDecodingError: CodedError, Sendable {
    /// What kind of decoding failed. Open: later versions may add codes, so a `switch` over them
    /// keeps a `default`.
    public struct Code: ErrorCode {
        package let text: String
        package init(_ text: String) { self.text = text }

        /// Not three base64url segments, or the payload segment is not strict base64url.
        public static let malformedJWS = Code("malformedJWS")
        /// The payload is not JSON, or not a JSON object.
        public static let invalidJSON = Code("invalidJSON")
        /// The payload is a JSON object whose fields do not have the types Apple documents.
        public static let invalidPayload = Code("invalidPayload")
        /// The input is longer than ``SignedDataVerifier/Configuration/maximumInputLength``.
        public static let inputTooLarge = Code("inputTooLarge")
        /// The payload is another kind of signed data than the entry point decodes (for example a
        /// notification handed to `verifyTransaction`).
        public static let wrongPayloadType = Code("wrongPayloadType")
        /// The input is not an app receipt: not base64 of a PKCS#7 SignedData with attached content
        /// and one signer, or its payload is not a strictly encoded receipt attribute SET.
        public static let malformedReceipt = Code("malformedReceipt")
    }

    /// What kind of decoding failed.
    public let code: Code
    /// What failed, where, and what to do.
    public let message: String

    /// Creates an error with its code and a message saying what failed, where, and what to do.
    public init(_ code: Code, _ message: String) {
        self.code = code
        // Messages may quote the input; nothing in it may forge a log line.
        self.message = LogSafeText.escaping(message)
    }

}
