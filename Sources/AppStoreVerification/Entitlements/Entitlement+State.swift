extension Entitlement {
    /// The state of an entitlement at an instant, modelled on StoreKit's
    /// `Product.SubscriptionInfo.RenewalState` plus ``purchased`` for one-time products.
    public enum State: String, Codable, Hashable, Sendable, CaseIterable, CustomStringConvertible {
        /// A non-consumable the customer owns (bought or shared by the family) and that is not revoked.
        case purchased
        /// A subscription in its paid (or offer) period: auto-renewable with `expiresDate` after the
        /// instant, or non-renewing within its configured duration.
        case subscribed
        /// The subscription expired and the App Store is not retrying billing.
        case expired
        /// The subscription expired, the App Store is retrying billing, and no grace period runs:
        /// no access.
        case inBillingRetryPeriod
        /// The subscription expired, the App Store is retrying billing, and the billing grace
        /// period (`gracePeriodExpiresDate`) has not ended: keep giving access.
        case inGracePeriod
        /// The App Store refunded the purchase or revoked it from Family Sharing.
        case revoked

        /// Whether the state gives access: ``purchased``, ``subscribed``, ``inGracePeriod``.
        public var isGranted: Bool {
            switch self {
            case .purchased, .subscribed, .inGracePeriod: true
            case .expired, .inBillingRetryPeriod, .revoked: false
            }
        }

        /// The raw value (`"inGracePeriod"`, ...).
        public var description: String { rawValue }
    }
}
