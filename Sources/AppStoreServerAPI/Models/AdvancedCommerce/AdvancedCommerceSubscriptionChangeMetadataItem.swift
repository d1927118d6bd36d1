import AppStoreVerification

/// New metadata for an item of an Advanced Commerce subscription: its SKU, description or display
/// name (Apple's `SubscriptionChangeMetadataItem`).
///
/// See [SubscriptionChangeMetadataItem](https://developer.apple.com/documentation/advancedcommerceapi/subscriptionchangemetadataitem).
public struct AdvancedCommerceSubscriptionChangeMetadataItem: Codable, Hashable, Sendable {
    /// The item's SKU now; at most 128 characters.
    public var currentSKU: String

    /// When the change takes effect.
    public var effective: AdvancedCommerceEffective

    /// The item's new SKU; at most 128 characters.
    public var SKU: String?

    /// The item's new description, for your own use; at most 45 characters.
    public var description: String?

    /// The item's new name, suitable for display to customers; at most 30 characters.
    public var displayName: String?

    /// Creates an item metadata change.
    ///
    /// - Parameters: as the properties describe.
    public init(currentSKU: String, effective: AdvancedCommerceEffective, SKU: String? = nil, description: String? = nil,
                displayName: String? = nil) {
        self.currentSKU = currentSKU
        self.effective = effective
        self.SKU = SKU
        self.description = description
        self.displayName = displayName
    }

    /// Checks Apple's rules for the item's members, naming them under `field`.
    func validate(at field: String) throws(AdvancedCommerceValidationError) {
        typealias Rules = AdvancedCommerceValidation
        try Rules.checkSKU(currentSKU, at: Rules.path(field, "currentSKU"))
        if let SKU { try Rules.checkSKU(SKU, at: Rules.path(field, "SKU")) }
        if let description { try Rules.checkDescription(description, at: Rules.path(field, "description")) }
        if let displayName { try Rules.checkDisplayName(displayName, at: Rules.path(field, "displayName")) }
    }
}
