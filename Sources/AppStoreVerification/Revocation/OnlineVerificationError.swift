/// Why an entry point of an ``OnlineSignedDataVerifier`` gave no result.
///
/// The online entry points return ``VerificationResult`` for every verdict, exactly like the
/// synchronous ones; they throw only when there is no verdict to give:
/// - ``decoding(_:)``: the input cannot be decoded (the same ``SignedDataDecodingError`` the
///   synchronous entry points throw; a permanent condition);
/// - ``revocationCheckUnavailable(_:)``: online checks are on and no revocation answer could be had
///   (retryable; see ``RevocationCheckUnavailable`` for what a server should do).
public enum OnlineVerificationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The input is not decodable signed data of the expected kind.
    case decoding(SignedDataDecodingError)
    /// No revocation answer could be had; try again later.
    case revocationCheckUnavailable(RevocationCheckUnavailable)

    /// Whether retrying later may succeed (true only for ``revocationCheckUnavailable(_:)``).
    public var isRetryable: Bool {
        if case .revocationCheckUnavailable = self { return true }
        return false
    }

    /// What kind of failure: compare it with ``Code/revocationCheckUnavailable`` or with a decoding
    /// error's code (`Code(.malformedJWS)`). Open: later versions may add codes.
    public struct Code: ErrorCode {
        package let text: String
        package init(text: String) { self.text = text }

        /// No revocation answer could be had (``OnlineVerificationError/revocationCheckUnavailable(_:)``).
        public static let revocationCheckUnavailable = Code(text: "revocationCheckUnavailable")

        /// The code of a decoding failure (``OnlineVerificationError/decoding(_:)``): the decoding
        /// error's own code, such as `malformedJWS`.
        public init(_ decoding: SignedDataDecodingError.Code) { self.text = decoding.text }
    }

    /// `revocationCheckUnavailable`, or the decoding error's code.
    public var code: Code {
        switch self {
        case .decoding(let error): Code(error.code)
        case .revocationCheckUnavailable: .revocationCheckUnavailable
        }
    }

    /// What failed and what to do: the wrapped error's description.
    public var message: String {
        switch self {
        case .decoding(let error): error.message
        case .revocationCheckUnavailable(let error): error.description
        }
    }

    /// The code and the message, as every error of the library prints: `revocationCheckUnavailable:
    /// timedOut: ...`, or `malformedJWS: ...`.
    public var description: String { "\(code): \(message)" }
}
