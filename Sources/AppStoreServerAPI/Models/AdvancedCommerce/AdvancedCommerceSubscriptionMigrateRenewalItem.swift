import AppStoreVerification

/// An item that replaces a migrated item when the subscription renews (Apple's `SubscriptionMigrateRenewalItem`).
///
/// See [SubscriptionMigrateRenewalItem](https://developer.apple.com/documentation/advancedcommerceapi/subscriptionmigraterenewalitem).
public struct AdvancedCommerceSubscriptionMigrateRenewalItem: Codable, Hashable, Sendable {
    /// The SKU the item renews to at the next renewal; at most 128 characters.
    public var SKU: String

    /// A description of the item for your own use; at most 45 characters.
    public var description: String

    /// The item's name, suitable for display to customers; at most 30 characters.
    public var displayName: String

    /// Creates the item.
    ///
    /// - Parameters: as the properties describe.
    public init(SKU: String, description: String, displayName: String) {
        self.SKU = SKU
        self.description = description
        self.displayName = displayName
    }

    /// Checks Apple's rules for the item's members, naming them under `field`.
    func validate(at field: String) throws(AdvancedCommerceValidationError) {
        typealias Rules = AdvancedCommerceValidation
        try Rules.checkSKU(SKU, at: Rules.path(field, "SKU"))
        try Rules.checkDescription(description, at: Rules.path(field, "description"))
        try Rules.checkDisplayName(displayName, at: Rules.path(field, "displayName"))
    }
}
