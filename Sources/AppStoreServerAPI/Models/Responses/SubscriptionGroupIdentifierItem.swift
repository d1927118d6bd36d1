import AppStoreVerification

/// The subscriptions of one subscription group (Apple's `SubscriptionGroupIdentifierItem`).
public struct SubscriptionGroupIdentifierItem: Sendable {
    /// The subscription group.
    public let subscriptionGroupIdentifier: String?
    /// The latest transaction and renewal info of each subscription in the group.
    public let lastTransactions: [LastTransactionsItem]

    /// The item as Apple sends it.
    struct Body: Decodable, Sendable {
        let subscriptionGroupIdentifier: String?
        let lastTransactions: [LastTransactionsItem.Body]?
    }

    init(subscriptionGroupIdentifier: String?, lastTransactions: [LastTransactionsItem]) {
        self.subscriptionGroupIdentifier = subscriptionGroupIdentifier
        self.lastTransactions = lastTransactions
    }
}
