import Foundation

/// A price increase of an item of an Advanced Commerce subscription.
public struct AdvancedCommercePriceIncreaseInfo: Codable, Hashable, Sendable {
    /// The SKUs of the items that the price increase depends on.
    public let dependentSKUs: [String]?

    /// The new price of the item, in milliunits.
    public let price: Int64?

    /// Whether the price increase is scheduled, waiting for the customer's consent, or accepted.
    public let status: AdvancedCommercePriceIncreaseInfoStatus?
}
