import AppStoreVerification

/// The body of Change Subscription Metadata (Apple's `SubscriptionChangeMetadataRequest`): new
/// SKUs, descriptions or display names, without changing billing or service.
///
/// See [SubscriptionChangeMetadataRequest](https://developer.apple.com/documentation/advancedcommerceapi/subscriptionchangemetadatarequest).
public struct AdvancedCommerceSubscriptionChangeMetadataRequest: AdvancedCommerceAPIRequest, Codable, Hashable, Sendable {
    /// The request's metadata.
    public var requestInfo: AdvancedCommerceRequestInfo

    /// A new description or display name for the subscription.
    public var descriptors: AdvancedCommerceSubscriptionChangeMetadataDescriptors?

    /// New metadata for items of the subscription.
    public var items: [AdvancedCommerceSubscriptionChangeMetadataItem]?

    /// The storefront: an ISO 3166-1 alpha-3 code such as `USA`.
    public var storefront: String?

    /// The tax code of the subscription.
    public var taxCode: String?

    /// Creates a metadata change request.
    ///
    /// - Parameters: as the properties describe.
    public init(requestInfo: AdvancedCommerceRequestInfo, descriptors: AdvancedCommerceSubscriptionChangeMetadataDescriptors? = nil,
                items: [AdvancedCommerceSubscriptionChangeMetadataItem]? = nil, storefront: String? = nil, taxCode: String? = nil) {
        self.requestInfo = requestInfo
        self.descriptors = descriptors
        self.items = items
        self.storefront = storefront
        self.taxCode = taxCode
    }

    /// Checks Apple's rules: the storefront code, the descriptors' lengths and each item's SKUs,
    /// description and display name.
    ///
    /// - Throws: `AdvancedCommerceValidationError` naming the first member that breaks a rule.
    public func validate() throws(AdvancedCommerceValidationError) {
        typealias Rules = AdvancedCommerceValidation
        if let storefront { try Rules.checkStorefront(storefront, at: "storefront") }
        try descriptors?.validate(at: "descriptors")
        for (index, item) in (items ?? []).enumerated() { try item.validate(at: Rules.path("items", index: index)) }
    }
}
