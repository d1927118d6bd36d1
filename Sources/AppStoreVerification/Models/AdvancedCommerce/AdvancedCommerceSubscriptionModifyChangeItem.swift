/// An item of an Advanced Commerce subscription to replace with another (Apple's
/// `SubscriptionModifyChangeItem`).
///
/// See [SubscriptionModifyChangeItem](https://developer.apple.com/documentation/advancedcommerceapi/subscriptionmodifychangeitem).
public struct AdvancedCommerceSubscriptionModifyChangeItem: Codable, Hashable, Sendable {
    /// The SKU of the item to change; at most 128 characters.
    public var currentSKU: String

    /// The SKU of the item that replaces it; at most 128 characters.
    public var SKU: String

    /// A description of the new item for your own use; at most 45 characters.
    public var description: String

    /// The new item's name, suitable for display to customers; at most 30 characters.
    public var displayName: String

    /// When the change takes effect.
    public var effective: AdvancedCommerceEffective

    /// The new item's price per period, in milliunits of the currency; 0 or more.
    public var price: Int64

    /// Why the item changes.
    public var reason: AdvancedCommerceReason

    /// A discount offer on the new item: every member present, 1 to 12 periods.
    public var offer: AdvancedCommerceOffer?

    /// The prorated price for the rest of the current period, in milliunits; 0 or more.
    public var proratedPrice: Int64?

    /// Creates an item change.
    ///
    /// - Parameters: as the properties describe.
    public init(currentSKU: String, SKU: String, description: String, displayName: String, effective: AdvancedCommerceEffective,
                price: Int64, reason: AdvancedCommerceReason, offer: AdvancedCommerceOffer? = nil, proratedPrice: Int64? = nil) {
        self.currentSKU = currentSKU
        self.SKU = SKU
        self.description = description
        self.displayName = displayName
        self.effective = effective
        self.price = price
        self.reason = reason
        self.offer = offer
        self.proratedPrice = proratedPrice
    }

    /// Checks Apple's rules for the item's members, naming them under `field`.
    package func validate(at field: String) throws(AdvancedCommerceValidationError) {
        typealias Rules = AdvancedCommerceValidation
        try Rules.checkSKU(currentSKU, at: Rules.path(field, "currentSKU"))
        try Rules.checkSKU(SKU, at: Rules.path(field, "SKU"))
        try Rules.checkDescription(description, at: Rules.path(field, "description"))
        try Rules.checkDisplayName(displayName, at: Rules.path(field, "displayName"))
        try Rules.checkAmount(price, at: Rules.path(field, "price"))
        if let offer { try Rules.checkOffer(offer, at: Rules.path(field, "offer")) }
        if let proratedPrice { try Rules.checkAmount(proratedPrice, at: Rules.path(field, "proratedPrice")) }
    }
}
