/// Input that cannot be decoded at all: there is no payload to hand back, verified or not.
///
/// Thrown by the verifier's entry points for text that is not a compact JWS, a payload that is not a
/// JSON object, a payload whose fields have the wrong types, input over the size limit, or a payload
/// of another kind than the entry point decodes.
public struct SignedDataDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of decoding failed. Open: later versions may add codes, so a `switch` over them
    /// keeps a `default`.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The code as text, as `verify-jws` prints it.
        public let rawValue: String
        /// Creates a code from its text.
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// Not three base64url segments, or the payload segment is not strict base64url.
        public static let malformedJWS = Code(rawValue: "malformedJWS")
        /// The payload is not JSON, or not a JSON object.
        public static let invalidJSON = Code(rawValue: "invalidJSON")
        /// The payload is a JSON object whose fields do not have the types Apple documents.
        public static let invalidPayload = Code(rawValue: "invalidPayload")
        /// The input is longer than ``SignedDataVerifier/Configuration/maximumInputLength``.
        public static let inputTooLarge = Code(rawValue: "inputTooLarge")
        /// The payload is another kind of signed data than the entry point decodes (for example a
        /// notification handed to `verifyTransaction`).
        public static let wrongPayloadType = Code(rawValue: "wrongPayloadType")
        /// The input is not an app receipt: not base64 of a PKCS#7 SignedData with attached content
        /// and one signer, or its payload is not a strictly encoded receipt attribute SET.
        public static let malformedReceipt = Code(rawValue: "malformedReceipt")
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

    public var description: String { "\(code): \(message)" }
}
