import AppStoreVerification

/// The answer of an Advanced Commerce API endpoint, its signed data verified: the transaction and,
/// for a subscription, its renewal info after the change.
///
/// A JWS that fails verification is `.unverified`; check ``transaction`` before you act on it.
public struct AdvancedCommerceVerifiedResponse: Sendable {
    /// `signedTransactionInfo`, verified.
    public let transaction: VerificationResult<Transaction>

    /// `signedRenewalInfo`, verified; `nil` when Apple sends none (only Request Transaction Refund may
    /// leave it out).
    public let renewalInfo: VerificationResult<RenewalInfo>?

    init(transaction: VerificationResult<Transaction>, renewalInfo: VerificationResult<RenewalInfo>?) {
        self.transaction = transaction
        self.renewalInfo = renewalInfo
    }
}
