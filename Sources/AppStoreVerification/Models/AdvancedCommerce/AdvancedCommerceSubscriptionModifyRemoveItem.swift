/// An item to remove from an Advanced Commerce subscription (Apple's `SubscriptionModifyRemoveItem`).
///
/// See [SubscriptionModifyRemoveItem](https://developer.apple.com/documentation/advancedcommerceapi/subscriptionmodifyremoveitem).
public struct AdvancedCommerceSubscriptionModifyRemoveItem: Codable, Hashable, Sendable {
    /// The SKU of the item to remove; at most 128 characters.
    public var SKU: String

    /// Creates an item to remove.
    ///
    /// - Parameter SKU: the SKU of the item to remove.
    public init(SKU: String) {
        self.SKU = SKU
    }

    /// Checks Apple's rules for the item's members, naming them under `field`.
    package func validate(at field: String) throws(AdvancedCommerceValidationError) {
        try AdvancedCommerceValidation.checkSKU(SKU, at: AdvancedCommerceValidation.path(field, "SKU"))
    }
}
