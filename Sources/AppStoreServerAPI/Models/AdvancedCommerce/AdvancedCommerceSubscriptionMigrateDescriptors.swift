import AppStoreVerification

/// The description and display name of the Advanced Commerce subscription a subscription migrates
/// to (Apple's `SubscriptionMigrateDescriptors`).
///
/// See [SubscriptionMigrateDescriptors](https://developer.apple.com/documentation/advancedcommerceapi/subscriptionmigratedescriptors).
public struct AdvancedCommerceSubscriptionMigrateDescriptors: Codable, Hashable, Sendable {
    /// A description of the subscription for your own use; at most 45 characters.
    public var description: String

    /// The subscription's name, suitable for display to customers; at most 30 characters.
    public var displayName: String

    /// Creates the descriptors.
    ///
    /// - Parameters: as the properties describe.
    public init(description: String, displayName: String) {
        self.description = description
        self.displayName = displayName
    }

    /// Checks Apple's rules for the members, naming them under `field`.
    func validate(at field: String) throws(AdvancedCommerceValidationError) {
        typealias Rules = AdvancedCommerceValidation
        try Rules.checkDescription(description, at: Rules.path(field, "description"))
        try Rules.checkDisplayName(displayName, at: Rules.path(field, "displayName"))
    }
}
