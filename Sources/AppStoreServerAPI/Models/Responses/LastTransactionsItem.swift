import AppStoreVerification

/// The latest transaction and renewal info of one subscription (Apple's `LastTransactionsItem`),
/// both verified.
public struct LastTransactionsItem: Sendable {
    /// The subscription's status (active, expired, billing retry, grace period, revoked).
    public let status: Status?
    /// The subscription's original transaction ID.
    public let originalTransactionId: String?
    /// `signedTransactionInfo`, verified.
    public let transaction: VerificationResult<Transaction>?
    /// `signedRenewalInfo`, verified.
    public let renewalInfo: VerificationResult<RenewalInfo>?

    /// The item as Apple sends it.
    struct Body: Decodable, Sendable {
        let status: Status?
        let originalTransactionId: String?
        let signedTransactionInfo: String?
        let signedRenewalInfo: String?
    }

    init(body: Body, transaction: VerificationResult<Transaction>?, renewalInfo: VerificationResult<RenewalInfo>?) {
        self.status = body.status
        self.originalTransactionId = body.originalTransactionId
        self.transaction = transaction
        self.renewalInfo = renewalInfo
    }
}
