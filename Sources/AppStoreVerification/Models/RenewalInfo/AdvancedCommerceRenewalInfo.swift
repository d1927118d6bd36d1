import Foundation

/// Renewal information present only for subscriptions sold through the Advanced Commerce API.
public struct AdvancedCommerceRenewalInfo: Codable, Hashable, Sendable {
    /// A token to pass back with Advanced Commerce API requests that change the subscription, so the
    /// App Store can detect a change based on outdated information.
    public let consistencyToken: String?

    /// The display name and description of the subscription.
    public let descriptors: AdvancedCommerceDescriptors?

    /// The items, identified by SKU, that renew at the next billing period.
    public let items: [AdvancedCommerceRenewalItem]?

    /// The duration of a single cycle of the subscription.
    public let period: AdvancedCommercePeriod?

    /// The identifier of the Advanced Commerce request that last changed the subscription.
    public let requestReferenceId: String?

    /// The tax code of the product.
    public let taxCode: String?
}
