import AppStoreVerification

/// A new price for an item of an Advanced Commerce subscription (Apple's
/// `SubscriptionPriceChangeItem`).
///
/// See [SubscriptionPriceChangeItem](https://developer.apple.com/documentation/advancedcommerceapi/subscriptionpricechangeitem).
public struct AdvancedCommerceSubscriptionPriceChangeItem: Codable, Hashable, Sendable {
    /// The SKU of the item whose price changes; at most 128 characters.
    public var SKU: String

    /// The new price, in milliunits of the currency; 0 or more.
    public var price: Int64

    /// The SKUs of items bundled with this one whose prices the change covers; each at most 128
    /// characters.
    public var dependentSKUs: [String]?

    /// Creates a price change item.
    ///
    /// - Parameters: as the properties describe.
    public init(SKU: String, price: Int64, dependentSKUs: [String]? = nil) {
        self.SKU = SKU
        self.price = price
        self.dependentSKUs = dependentSKUs
    }

    /// Checks Apple's rules for the item's members, naming them under `field`.
    func validate(at field: String) throws(AdvancedCommerceValidationError) {
        typealias Rules = AdvancedCommerceValidation
        try Rules.checkSKU(SKU, at: Rules.path(field, "SKU"))
        try Rules.checkAmount(price, at: Rules.path(field, "price"))
        for (index, sku) in (dependentSKUs ?? []).enumerated() {
            try Rules.checkSKU(sku, at: Rules.path(Rules.path(field, "dependentSKUs"), index: index))
        }
    }
}
