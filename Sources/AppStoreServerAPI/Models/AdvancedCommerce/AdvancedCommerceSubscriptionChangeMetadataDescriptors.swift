import AppStoreVerification

/// A new description or display name for an Advanced Commerce subscription (Apple's
/// `SubscriptionChangeMetadataDescriptors`).
///
/// See [SubscriptionChangeMetadataDescriptors](https://developer.apple.com/documentation/advancedcommerceapi/subscriptionchangemetadatadescriptors).
public struct AdvancedCommerceSubscriptionChangeMetadataDescriptors: Codable, Hashable, Sendable {
    /// When the change takes effect.
    public var effective: AdvancedCommerceEffective

    /// The new description, for your own use; at most 45 characters.
    public var description: String?

    /// The new name, suitable for display to customers; at most 30 characters.
    public var displayName: String?

    /// Creates a descriptors change.
    ///
    /// - Parameters: as the properties describe.
    public init(effective: AdvancedCommerceEffective, description: String? = nil, displayName: String? = nil) {
        self.effective = effective
        self.description = description
        self.displayName = displayName
    }

    /// Checks Apple's rules for the members, naming them under `field`.
    func validate(at field: String) throws(AdvancedCommerceValidationError) {
        typealias Rules = AdvancedCommerceValidation
        if let description { try Rules.checkDescription(description, at: Rules.path(field, "description")) }
        if let displayName { try Rules.checkDisplayName(displayName, at: Rules.path(field, "displayName")) }
    }
}
