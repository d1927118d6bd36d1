/// The product of a one-time charge (Apple's `OneTimeChargeItem`).
///
/// See [OneTimeChargeItem](https://developer.apple.com/documentation/advancedcommerceapi/onetimechargeitem).
public struct AdvancedCommerceOneTimeChargeItem: Codable, Hashable, Sendable {
    /// The product identifier, which you manage in your own system; at most 128 characters.
    public var SKU: String

    /// A description of the product for your own use, never shown to customers; at most 45
    /// characters, without personal customer information.
    public var description: String

    /// The product's name, suitable for display to customers; at most 30 characters.
    public var displayName: String

    /// The price, in milliunits of the request's currency; 0 or more.
    public var price: Int64

    /// Creates a one-time charge item.
    ///
    /// - Parameters: as the properties describe.
    public init(SKU: String, description: String, displayName: String, price: Int64) {
        self.SKU = SKU
        self.description = description
        self.displayName = displayName
        self.price = price
    }

    /// Checks Apple's rules for the item's members, naming them under `field`.
    package func validate(at field: String) throws(AdvancedCommerceValidationError) {
        typealias Rules = AdvancedCommerceValidation
        try Rules.checkSKU(SKU, at: Rules.path(field, "SKU"))
        try Rules.checkDescription(description, at: Rules.path(field, "description"))
        try Rules.checkDisplayName(displayName, at: Rules.path(field, "displayName"))
        try Rules.checkAmount(price, at: Rules.path(field, "price"))
    }
}
