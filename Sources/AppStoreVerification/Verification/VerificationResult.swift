import Foundation

/// The outcome of verifying signed data, shaped like StoreKit 2's `VerificationResult`.
///
/// Both cases carry the decoded payload: an unverified payload is what the JWS *claims*, useful for
/// logging and support, never for granting anything.
///
/// ```swift
/// switch try verifier.verifyTransaction(jws) {
/// case .verified(let transaction):
///     grant(transaction.productId)
/// case .unverified(_, let error):
///     logger.warning("rejected: \(error)")
/// }
/// ```
public enum VerificationResult<SignedType: Sendable>: Sendable {
    /// The signature and chain hold and every configured check passed.
    case verified(SignedType)
    /// The payload decoded, but a check failed; the error says which.
    case unverified(SignedType, VerificationError)

    /// The payload if verified.
    ///
    /// - Throws: the ``VerificationError`` when unverified.
    public var payloadValue: SignedType {
        get throws(VerificationError) {
            switch self {
            case .verified(let payload): return payload
            case .unverified(_, let error): throw error
            }
        }
    }

    /// The payload, verified or not. Never grant anything on it without checking ``isVerified``.
    public var unsafePayloadValue: SignedType {
        switch self {
        case .verified(let payload), .unverified(let payload, _): payload
        }
    }

    /// Whether verification succeeded.
    public var isVerified: Bool {
        if case .verified = self { return true }
        return false
    }

    /// Why verification failed, or `nil` when it succeeded.
    public var verificationError: VerificationError? {
        if case .unverified(_, let error) = self { return error }
        return nil
    }
}

extension VerificationResult where SignedType: SignedPayload {
    // The accessors below read the JWS the verifier attached to the payload. A result built by hand
    // from a payload decoded without a JWS (with `AppStoreJSON`, in tests) has none: they are empty.

    /// The JWS the verifier attached to the payload, if any.
    private var jws: CompactJWS? { (unsafePayloadValue as? any JWSAttaching)?.jws }

    /// The JWS exactly as it was given; empty for a result not produced from a JWS.
    public var jwsRepresentation: String { jws?.jwsRepresentation ?? "" }
    /// The decoded JWS header JSON; empty for a result not produced from a JWS.
    public var headerData: Data { jws?.headerData ?? Data() }
    /// The decoded payload JSON; empty for a result not produced from a JWS.
    public var payloadData: Data { jws?.payloadData ?? Data() }
    /// The bytes the signature covers: `header.payload` as ASCII; empty for a result not produced
    /// from a JWS.
    public var signedData: Data { jws?.signedData ?? Data() }
    /// The raw signature bytes (`r || s` for ES256); empty for a result not produced from a JWS.
    public var signature: Data { jws?.signature ?? Data() }
    /// The date the payload says it was signed.
    public var signedDate: Date? { unsafePayloadValue.signedDate }
}

extension VerificationResult: Equatable where SignedType: Equatable {}
extension VerificationResult: Hashable where SignedType: Hashable {}
