import AppStoreVerification

/// What the routes do with verified data, in place of your own code: it remembers the transactions
/// granted and the notifications stored.
public actor PurchaseLedger {
    /// The IDs of the transactions granted, in order.
    public private(set) var grantedTransactionIds: [String] = []
    /// The UUIDs of the notifications stored, in order.
    public private(set) var storedNotificationUUIDs: [String] = []

    /// An empty ledger.
    public init() {}

    /// Grants what `transaction` bought.
    public func grant(_ transaction: Transaction) {
        grantedTransactionIds.append(transaction.transactionId)
    }

    /// Stores a verified notification.
    public func store(_ notification: ResponseBodyV2DecodedPayload) {
        storedNotificationUUIDs.append(notification.notificationUUID ?? "")
    }
}
