import Foundation

/// What one customer has for one product (or one subscription group) at an instant, and why —
/// the server's counterpart of a transaction in StoreKit's `Transaction.currentEntitlements`,
/// with the subscription state of `Product.SubscriptionInfo.Status`.
///
/// ``EntitlementEngine/currentEntitlements(at:)`` returns only granted ones (``isGranted``);
/// ``EntitlementEngine/statuses(at:)`` also returns expired, revoked and billing-retry ones.
public struct Entitlement: Codable, Hashable, Sendable {
    /// The product the customer has (for a subscription group, the product of the transaction
    /// that decides the state).
    public let productId: String
    /// The product's type: auto-renewable, non-renewing or non-consumable (never consumable).
    public let productType: ProductType
    /// The transaction that decides the entitlement.
    public let transactionId: String
    /// That transaction's original transaction ID.
    public let originalTransactionId: String
    /// The subscription group, for auto-renewable subscriptions.
    public let subscriptionGroupIdentifier: String?
    /// When the deciding transaction was purchased.
    public let purchaseDate: Date?
    /// When access ends: the transaction's `expiresDate` for auto-renewable subscriptions, the
    /// purchase date plus the configured duration for non-renewing ones, `nil` for non-consumables.
    public let expiresDate: Date?
    /// When the deciding transaction was revoked (refund or Family Sharing revocation), if it was
    /// by the instant.
    public let revocationDate: Date?
    /// The state at the instant.
    public let state: State
    /// Whether the customer bought the product or has it through Family Sharing.
    public let ownershipType: InAppOwnershipType?
    /// The renewal info's auto-renew status, where renewal info is known.
    public let autoRenewStatus: AutoRenewStatus?
    /// The product that renews at the next period, where renewal info is known.
    public let autoRenewProductId: String?
    /// Whether the App Store is retrying billing, where renewal info is known.
    public let isInBillingRetryPeriod: Bool?
    /// The end of the billing grace period, where renewal info gives one.
    public let gracePeriodExpiresDate: Date?
    /// Why the entitlement has this state, in a sentence naming the transaction and the dates
    /// compared.
    public let reason: String

    /// Whether the customer has access: state ``State/purchased``, ``State/subscribed`` or
    /// ``State/inGracePeriod``.
    public var isGranted: Bool { state.isGranted }

    /// Creates an entitlement (the engine creates them; public for tests and stored answers).
    public init(
        productId: String, productType: ProductType, transactionId: String, originalTransactionId: String,
        subscriptionGroupIdentifier: String?, purchaseDate: Date?, expiresDate: Date?, revocationDate: Date?,
        state: State, ownershipType: InAppOwnershipType?, autoRenewStatus: AutoRenewStatus?,
        autoRenewProductId: String?, isInBillingRetryPeriod: Bool?, gracePeriodExpiresDate: Date?, reason: String
    ) {
        self.productId = productId
        self.productType = productType
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.subscriptionGroupIdentifier = subscriptionGroupIdentifier
        self.purchaseDate = purchaseDate
        self.expiresDate = expiresDate
        self.revocationDate = revocationDate
        self.state = state
        self.ownershipType = ownershipType
        self.autoRenewStatus = autoRenewStatus
        self.autoRenewProductId = autoRenewProductId
        self.isInBillingRetryPeriod = isInBillingRetryPeriod
        self.gracePeriodExpiresDate = gracePeriodExpiresDate
        self.reason = reason
    }
}
