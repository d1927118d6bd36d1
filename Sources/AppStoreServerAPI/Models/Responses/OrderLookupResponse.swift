import AppStoreVerification

/// The transactions of an order (Apple's `OrderLookupResponse`), verified.
public struct OrderLookupResponse: Sendable {
    /// Whether the order ID is valid.
    public let status: OrderLookupStatus?
    /// `signedTransactions`, each verified; empty for an invalid order ID.
    public let transactions: [VerificationResult<Transaction>]

    /// The body as Apple sends it.
    struct Body: Decodable, Sendable {
        let status: OrderLookupStatus?
        let signedTransactions: [String]?
    }
}
