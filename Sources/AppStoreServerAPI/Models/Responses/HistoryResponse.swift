import AppStoreVerification

/// One page of Get Transaction History (Apple's `HistoryResponse`), its signed transactions
/// verified.
public struct HistoryResponse: Sendable {
    /// The token of the next page; pass it as `revision` with the same filters.
    public let revision: String?
    /// Whether more pages follow.
    public let hasMore: Bool?
    /// The app's bundle ID.
    public let bundleId: String?
    /// The app's Apple ID.
    public let appAppleId: Int64?
    /// The environment of the history.
    public let environment: AppStoreEnvironment?
    /// `signedTransactions`, each verified: up to 20 per page, in the requested order.
    public let transactions: [VerificationResult<Transaction>]

    /// The body as Apple sends it.
    struct Body: Decodable, Sendable {
        let revision: String?
        let hasMore: Bool?
        let bundleId: String?
        let appAppleId: Int64?
        let environment: AppStoreEnvironment?
        let signedTransactions: [String]?
    }

    init(body: Body, transactions: [VerificationResult<Transaction>]) {
        self.revision = body.revision
        self.hasMore = body.hasMore
        self.bundleId = body.bundleId
        self.appAppleId = body.appAppleId
        self.environment = body.environment
        self.transactions = transactions
    }
}
