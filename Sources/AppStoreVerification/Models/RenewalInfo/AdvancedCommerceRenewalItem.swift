import Foundation

/// One item, identified by its SKU, that renews in an Advanced Commerce subscription.
public struct AdvancedCommerceRenewalItem: Codable, Hashable, Sendable {
    /// The product identifier of the item, which you manage in your own system.
    public let SKU: String?

    /// A description of the item that you provide.
    public let description: String?

    /// The item's name, suitable for display to customers.
    public let displayName: String?

    /// The discount offer that applies to the item at renewal.
    public let offer: AdvancedCommerceOffer?

    /// The renewal price of the item, in milliunits.
    public let price: Int64?

    /// A price increase scheduled or pending for the item.
    public let priceIncreaseInfo: AdvancedCommercePriceIncreaseInfo?

    /// Creates a value with the members given, for tests and tools; a member left out is absent from the JSON.
    ///
    /// Every member is as documented on its property; dates are kept to whole milliseconds, as Apple
    /// writes them. A member given as `nil` is absent from the JSON.
    public init(
        SKU: String? = nil,
        description: String? = nil,
        displayName: String? = nil,
        offer: AdvancedCommerceOffer? = nil,
        price: Int64? = nil,
        priceIncreaseInfo: AdvancedCommercePriceIncreaseInfo? = nil
    ) {
        self.SKU = SKU
        self.description = description
        self.displayName = displayName
        self.offer = offer
        self.price = price
        self.priceIncreaseInfo = priceIncreaseInfo
    }
}
