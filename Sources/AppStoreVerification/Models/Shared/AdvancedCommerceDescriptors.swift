import Foundation

/// The display name and description of a product sold through the Advanced Commerce API.
public struct AdvancedCommerceDescriptors: Codable, Hashable, Sendable {
    /// A description of the product that you provide.
    public let description: String?

    /// The product's name, which you can localize, suitable for display to customers.
    public let displayName: String?

    /// Creates a value with the members given, for tests and tools; a member left out is absent from the JSON.
    ///
    /// Every member is as documented on its property; dates are kept to whole milliseconds, as Apple
    /// writes them. A member given as `nil` is absent from the JSON.
    public init(
        description: String? = nil,
        displayName: String? = nil
    ) {
        self.description = description
        self.displayName = displayName
    }
}
