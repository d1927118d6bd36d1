/// An item of an Advanced Commerce subscription to reactivate (Apple's `SubscriptionReactivateItem`).
///
/// See [SubscriptionReactivateItem](https://developer.apple.com/documentation/advancedcommerceapi/subscriptionreactivateitem).
public struct AdvancedCommerceSubscriptionReactivateItem: Codable, Hashable, Sendable {
    /// The SKU of the item to reactivate; at most 128 characters.
    public var SKU: String

    /// Creates an item to reactivate.
    ///
    /// - Parameter SKU: the SKU of the item to reactivate.
    public init(SKU: String) {
        self.SKU = SKU
    }

    /// Checks Apple's rules for the item's members, naming them under `field`.
    package func validate(at field: String) throws(AdvancedCommerceValidationError) {
        try AdvancedCommerceValidation.checkSKU(SKU, at: AdvancedCommerceValidation.path(field, "SKU"))
    }
}
