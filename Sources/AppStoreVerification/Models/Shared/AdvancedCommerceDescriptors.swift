import Foundation

/// The display name and description of a product sold through the Advanced Commerce API.
public struct AdvancedCommerceDescriptors: Codable, Hashable, Sendable {
    /// A description of the product that you provide.
    public let description: String?

    /// The product's name, which you can localize, suitable for display to customers.
    public let displayName: String?
}
