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

    /// The wrapped error's description (`code: message`), the unavailability prefixed with
    /// `revocationCheckUnavailable: ` as ``OnlineVerificationError`` describes it.
    public var description: String {
        switch self {
        case .decoding(let error): error.description
        case .unverified(let error): error.description
        case .revocationCheckUnavailable(let error): OnlineVerificationError.revocationCheckUnavailable(error).description
        }
    }
}
