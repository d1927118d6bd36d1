import AppStoreVerification

/// The body of Request Transaction Refund (Apple's `RequestRefundRequest`): refunds items of a
/// one-time charge or subscription transaction.
///
/// See [RequestRefundRequest](https://developer.apple.com/documentation/advancedcommerceapi/requestrefundrequest).
public struct AdvancedCommerceRequestRefundRequest: AdvancedCommerceAPIRequest, Codable, Hashable, Sendable {
    /// The request's metadata.
    public var requestInfo: AdvancedCommerceRequestInfo

    /// The items to refund; at least one.
    public var items: [AdvancedCommerceRequestRefundItem]

    /// Whether you prefer the refund to go ahead when Apple's risk checks would decline it
    /// (Apple's `refundRiskingPreference`).
    public var refundRiskingPreference: Bool

    /// The currency of the transaction: an ISO 4217 code such as `USD`.
    public var currency: String?

    /// The storefront: an ISO 3166-1 alpha-3 code such as `USA`.
    public var storefront: String?

    /// Creates a refund request.
    ///
    /// - Parameters: as the properties describe.
    public init(requestInfo: AdvancedCommerceRequestInfo, items: [AdvancedCommerceRequestRefundItem], refundRiskingPreference: Bool,
                currency: String? = nil, storefront: String? = nil) {
        self.requestInfo = requestInfo
        self.items = items
        self.refundRiskingPreference = refundRiskingPreference
        self.currency = currency
        self.storefront = storefront
    }

    /// Checks Apple's rules: the currency and storefront codes, at least one item, each item's
    /// SKU and amount.
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
