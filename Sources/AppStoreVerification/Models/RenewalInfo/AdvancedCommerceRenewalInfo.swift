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

    /// Creates a value with the members given, for tests and tools; a member left out is absent from the JSON.
    ///
    /// Every member is as documented on its property; dates are kept to whole milliseconds, as Apple
    /// writes them. A member given as `nil` is absent from the JSON.
    public init(
        consistencyToken: String? = nil,
        descriptors: AdvancedCommerceDescriptors? = nil,
        items: [AdvancedCommerceRenewalItem]? = nil,
        period: AdvancedCommercePeriod? = nil,
        requestReferenceId: String? = nil,
        taxCode: String? = nil
    ) {
        self.consistencyToken = consistencyToken
        self.descriptors = descriptors
        self.items = items
        self.period = period
        self.requestReferenceId = requestReferenceId
        self.taxCode = taxCode
    }
}
