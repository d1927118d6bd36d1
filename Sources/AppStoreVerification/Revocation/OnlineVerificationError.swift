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

    /// `revocationCheckUnavailable`, or the decoding error's code.
    public var code: String {
        switch self {
        case .decoding(let error): error.code.description
        case .revocationCheckUnavailable: "revocationCheckUnavailable"
        }
    }

    /// The code and the wrapped error's description: `revocationCheckUnavailable: timedOut: ...`, or
    /// the decoding error's `malformedJWS: ...`.
    public var description: String {
        switch self {
        case .decoding(let error): error.description
        case .revocationCheckUnavailable(let error): "\(code): \(error)"
        }
    }
}
