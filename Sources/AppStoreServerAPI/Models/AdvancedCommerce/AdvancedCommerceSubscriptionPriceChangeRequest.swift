import AppStoreVerification

/// The body of Change Subscription Price (Apple's `SubscriptionPriceChangeRequest`): new prices for
/// items of an Advanced Commerce subscription, from its next renewal.
///
/// See [SubscriptionPriceChangeRequest](https://developer.apple.com/documentation/advancedcommerceapi/subscriptionpricechangerequest).
public struct AdvancedCommerceSubscriptionPriceChangeRequest: AdvancedCommerceAPIRequest, Codable, Hashable, Sendable {
    /// The request's metadata.
    public var requestInfo: AdvancedCommerceRequestInfo

    /// One entry per SKU whose price changes; at least one.
    public var items: [AdvancedCommerceSubscriptionPriceChangeItem]

    /// The currency of the prices: an ISO 4217 code such as `USD`.
    public var currency: String?

    /// The storefront: an ISO 3166-1 alpha-3 code such as `USA`.
    public var storefront: String?

    /// Creates a price change request.
    ///
    /// - Parameters: as the properties describe.
    public init(requestInfo: AdvancedCommerceRequestInfo, items: [AdvancedCommerceSubscriptionPriceChangeItem], currency: String? = nil,
                storefront: String? = nil) {
        self.requestInfo = requestInfo
        self.items = items
        self.currency = currency
        self.storefront = storefront
    }

    /// Checks Apple's rules: the currency and storefront codes, at least one item, each item's
    /// SKUs and price.
    ///
    /// - Throws: `AdvancedCommerceValidationError` naming the first member that breaks a rule.
    public func validate() throws(AdvancedCommerceValidationError) {
        typealias Rules = AdvancedCommerceValidation
        if let currency { try Rules.checkCurrency(currency, at: "currency") }
        if let storefront { try Rules.checkStorefront(storefront, at: "storefront") }
        try Rules.checkNotEmpty(items.count, at: "items")
        for (index, item) in items.enumerated() { try item.validate(at: Rules.path("items", index: index)) }
    }
}
