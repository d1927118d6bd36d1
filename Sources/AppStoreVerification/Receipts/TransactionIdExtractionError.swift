/// Why `extractTransactionIdFromAppReceipt` gave no transaction ID.
///
/// ```swift
/// do {
///     let transactionId = try verifier.extractTransactionIdFromAppReceipt(receipt)
/// } catch {
///     switch error {
///     case .decoding(let error): print("not an app receipt: \(error.message)")
///     case .unverified(let error): print("the receipt does not verify: \(error.message)")
///     case .revocationCheckUnavailable: print("try again later")
///     }
/// }
/// ```
public enum TransactionIdExtractionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The input is not an app receipt (what `verifyAppReceipt` throws).
    case decoding(SignedDataDecodingError)
    /// The receipt does not verify (what `verifyAppReceipt` returns as `.unverified`).
    case unverified(VerificationError)
    /// Online checks are on and no revocation answer could be had: try again later. Only an
    /// ``OnlineSignedDataVerifier`` throws it.
    case revocationCheckUnavailable(RevocationCheckUnavailable)

    /// What kind of failure: a decoding error's code (`Code(.malformedJWS)`), a verification
    /// error's (`Code(.invalidSignature)`), or
    /// ``Code/revocationCheckUnavailable``. Open: later versions may add codes.
    public struct Code: ErrorCode {
        package let text: String
        package init(text: String) { self.text = text }

        /// No revocation answer could be had (``TransactionIdExtractionError/revocationCheckUnavailable(_:)``).
        public static let revocationCheckUnavailable = Code(text: "revocationCheckUnavailable")

        /// The code of a decoding failure (``TransactionIdExtractionError/decoding(_:)``).
        public init(_ decoding: SignedDataDecodingError.Code) { self.text = decoding.text }

        /// The code of a verification failure (``TransactionIdExtractionError/unverified(_:)``).
        public init(_ verification: VerificationError.Code) { self.text = verification.text }
    }

    /// The wrapped error's code, or `revocationCheckUnavailable`.
    public var code: Code {
        switch self {
        case .decoding(let error): Code(error.code)
        case .unverified(let error): Code(error.code)
        case .revocationCheckUnavailable: .revocationCheckUnavailable
        }
    }

    /// What failed and what to do: the wrapped error's message (the unavailability's description).
    public var message: String {
        switch self {
        case .decoding(let error): error.message
        case .unverified(let error): error.message
        case .revocationCheckUnavailable(let error): error.description
        }
    }

    /// The code and the message, as every error of the library prints: `code: message`.
    public var description: String { "\(code): \(message)" }
}
