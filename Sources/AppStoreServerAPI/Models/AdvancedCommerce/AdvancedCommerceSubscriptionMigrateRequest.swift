import AppStoreVerification

/// The body of Migrate a Subscription to Advanced Commerce API (Apple's
/// `SubscriptionMigrateRequest`): moves a subscription bought through In-App Purchase to one you
/// manage with the Advanced Commerce API.
///
/// See [SubscriptionMigrateRequest](https://developer.apple.com/documentation/advancedcommerceapi/subscriptionmigraterequest).
public struct AdvancedCommerceSubscriptionMigrateRequest: AdvancedCommerceAPIRequest, Codable, Hashable, Sendable {
    /// The request's metadata.
    public var requestInfo: AdvancedCommerceRequestInfo

    /// The new subscription's description and display name.
    public var descriptors: AdvancedCommerceSubscriptionMigrateDescriptors

    /// The new subscription's items; at least one.
    public var items: [AdvancedCommerceSubscriptionMigrateItem]

    /// Your generic product ID for an auto-renewable subscription.
    public var targetProductId: String

    /// The tax code of the subscription.
    public var taxCode: String

    /// The items that renew at the next renewal, when they differ from ``items``; at least one
    /// when present.
    public var renewalItems: [AdvancedCommerceSubscriptionMigrateRenewalItem]?

    /// The storefront: an ISO 3166-1 alpha-3 code such as `USA`.
    public var storefront: String?

    /// Creates a migration request.
    ///
    /// - Parameters: as the properties describe.
    public init(requestInfo: AdvancedCommerceRequestInfo, descriptors: AdvancedCommerceSubscriptionMigrateDescriptors,
                items: [AdvancedCommerceSubscriptionMigrateItem], targetProductId: String, taxCode: String,
                renewalItems: [AdvancedCommerceSubscriptionMigrateRenewalItem]? = nil, storefront: String? = nil) {
        self.requestInfo = requestInfo
        self.descriptors = descriptors
        self.items = items
        self.targetProductId = targetProductId
        self.taxCode = taxCode
        self.renewalItems = renewalItems
        self.storefront = storefront
    }

    /// Checks Apple's rules: the storefront code, the descriptors' lengths, at least one item (and
    /// renewal item, when given), and each item's SKU, description and display name.
    ///
    /// - Throws: `AdvancedCommerceValidationError` naming the first member that breaks a rule.
    public func validate() throws(AdvancedCommerceValidationError) {
        typealias Rules = AdvancedCommerceValidation
        if let storefront { try Rules.checkStorefront(storefront, at: "storefront") }
        try descriptors.validate(at: "descriptors")
        try Rules.checkNotEmpty(items.count, at: "items")
        for (index, item) in items.enumerated() { try item.validate(at: Rules.path("items", index: index)) }
        if let renewalItems {
            try Rules.checkNotEmpty(renewalItems.count, at: "renewalItems")
            for (index, item) in renewalItems.enumerated() { try item.validate(at: Rules.path("renewalItems", index: index)) }
        }
    }
}
