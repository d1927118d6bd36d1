/// The outcomes of the store's write transactions, the same on both databases, and what a write
/// changed for the cache of customers' engines.
enum StoreWrite {
    /// ``ReceiptStore/storeTransaction(_:with:appAccountToken:receivedAt:)`` in the database.
    struct TransactionResult: Sendable {
        let outcome: ReceiptStore.TransactionOutcome
        let change: CustomerChange?
    }

    /// ``ReceiptStore/storeNotification(_:appAccountToken:receivedAt:)`` in the database.
    struct NotificationResult: Sendable {
        let outcome: ReceiptStore.NotificationOutcome
        let change: CustomerChange?
    }

    /// One batch of ``ReceiptStore/reverify(with:now:)``.
    struct ReverificationBatch: Sendable {
        /// The last row ID of the batch, or `nil` when there were no more rows.
        var lastId: Int64?
        var report = ReceiptStore.ReverificationReport()
        /// Customers whose revision was raised.
        var customers: Set<String> = []
    }

    /// One stored row as `reverify` reads it back.
    struct StoredRecords: Sendable {
        let id: Int64
        let kind: SignedDataKind
        let jws: String
        let name: String
        let originalTransactionId: String?
        let records: VerifiedRecords
    }

    /// Verifies a stored JWS (kind, text, name) again: the schema upgrade and `reverify`.
    typealias Verify = @Sendable (SignedDataKind, String, String) throws -> VerifiedRecords
}
