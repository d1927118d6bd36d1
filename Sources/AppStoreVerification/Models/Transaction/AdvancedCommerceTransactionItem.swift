import Foundation

/// One item, identified by its SKU, in an Advanced Commerce transaction.
public struct AdvancedCommerceTransactionItem: Codable, Hashable, Sendable {
    /// The product identifier of the item, which you manage in your own system.
    public let SKU: String?

    /// A description of the item that you provide.
    public let description: String?

    /// The item's name, suitable for display to customers.
    public let displayName: String?

    /// The discount offer that applies to the item.
    public let offer: AdvancedCommerceOffer?

    /// The price of the item, in milliunits.
    public let price: Int64?

    /// The refunds of the item.
    public let refunds: [AdvancedCommerceRefund]?

    /// The time the App Store revoked the item.
    public let revocationDate: Date?

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
        refunds: [AdvancedCommerceRefund]? = nil,
        revocationDate: Date? = nil
    ) {
        self.SKU = SKU
        self.description = description
        self.displayName = displayName
        self.offer = offer
        self.price = price
        self.refunds = refunds
        self.revocationDate = revocationDate.map(AppStoreJSON.wholeMilliseconds)
    }
}
