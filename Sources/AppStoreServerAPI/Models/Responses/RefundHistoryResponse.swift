import AppStoreVerification

/// One page of a customer's refunded purchases (Apple's `RefundHistoryResponse`), verified.
public struct RefundHistoryResponse: Sendable {
    /// The token of the next page; pass it as `revision`.
    public let revision: String?
    /// Whether more pages follow.
    public let hasMore: Bool?
    /// `signedTransactions`: up to 20 refunded transactions, each verified.
    public let transactions: [VerificationResult<Transaction>]

    /// The body as Apple sends it.
    struct Body: Decodable, Sendable {
        let revision: String?
        let hasMore: Bool?
        let signedTransactions: [String]?
    }
}
