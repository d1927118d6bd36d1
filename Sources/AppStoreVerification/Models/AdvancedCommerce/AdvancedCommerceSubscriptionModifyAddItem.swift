/// An item to add to an Advanced Commerce subscription (Apple's `SubscriptionModifyAddItem`).
///
/// See [SubscriptionModifyAddItem](https://developer.apple.com/documentation/advancedcommerceapi/subscriptionmodifyadditem).
public struct AdvancedCommerceSubscriptionModifyAddItem: Codable, Hashable, Sendable {
    /// The item's product identifier, which you manage in your own system; at most 128 characters.
    public var SKU: String

    /// A description of the item for your own use; at most 45 characters.
    public var description: String

    /// The item's name, suitable for display to customers; at most 30 characters.
    public var displayName: String

    /// The item's price per period, in milliunits of the currency; 0 or more.
    public var price: Int64

    /// A discount offer on the item: every member present, 1 to 12 periods.
    public var offer: AdvancedCommerceOffer?

    /// The prorated price for the rest of the current period, in milliunits; 0 or more.
    public var proratedPrice: Int64?

    /// Creates an item to add.
    ///
    /// - Parameters: as the properties describe.
    public init(SKU: String, description: String, displayName: String, price: Int64, offer: AdvancedCommerceOffer? = nil,
                proratedPrice: Int64? = nil) {
        self.SKU = SKU
        self.description = description
        self.displayName = displayName
        self.price = price
        self.offer = offer
        self.proratedPrice = proratedPrice
    }

    /// Checks Apple's rules for the item's members, naming them under `field`.
    package func validate(at field: String) throws(AdvancedCommerceValidationError) {
        typealias Rules = AdvancedCommerceValidation
        try Rules.checkSKU(SKU, at: Rules.path(field, "SKU"))
        try Rules.checkDescription(description, at: Rules.path(field, "description"))
        try Rules.checkDisplayName(displayName, at: Rules.path(field, "displayName"))
        try Rules.checkAmount(price, at: Rules.path(field, "price"))
        if let offer { try Rules.checkOffer(offer, at: Rules.path(field, "offer")) }
        if let proratedPrice { try Rules.checkAmount(proratedPrice, at: Rules.path(field, "proratedPrice")) }
    }
}
