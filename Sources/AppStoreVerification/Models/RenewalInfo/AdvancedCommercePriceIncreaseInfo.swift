import Foundation

/// A price increase of an item of an Advanced Commerce subscription.
public struct AdvancedCommercePriceIncreaseInfo: Codable, Hashable, Sendable {
    /// The SKUs of the items that the price increase depends on.
    public let dependentSKUs: [String]?

    /// The new price of the item, in milliunits.
    public let price: Int64?

    /// Whether the price increase is scheduled, waiting for the customer's consent, or accepted.
    public let status: AdvancedCommercePriceIncreaseInfoStatus?

    /// Creates a value with the members given, for tests and tools; a member left out is absent from the JSON.
    ///
    /// Every member is as documented on its property; dates are kept to whole milliseconds, as Apple
    /// writes them. A member given as `nil` is absent from the JSON.
    public init(
        dependentSKUs: [String]? = nil,
        price: Int64? = nil,
        status: AdvancedCommercePriceIncreaseInfoStatus? = nil
    ) {
        self.dependentSKUs = dependentSKUs
        self.price = price
        self.status = status
    }
}
