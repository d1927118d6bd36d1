import Foundation

/// Transaction information present only for SKUs sold through the Advanced Commerce API.
public struct AdvancedCommerceTransactionInfo: Codable, Hashable, Sendable {
    /// The display name and description of the purchase.
    public let descriptors: AdvancedCommerceDescriptors?

    /// The estimated tax, in milliunits, of the transaction.
    public let estimatedTax: Int64?

    /// The items, identified by SKU, that the transaction contains.
    public let items: [AdvancedCommerceTransactionItem]?

    /// The duration of a single cycle of the subscription.
    public let period: AdvancedCommercePeriod?

    /// The identifier of the Advanced Commerce request that led to the transaction.
    public let requestReferenceId: String?

    /// The tax code of the product.
    public let taxCode: String?

    /// The price, in milliunits, without tax.
    public let taxExclusivePrice: Int64?

    /// The tax rate applied, as a decimal string such as `0.15`.
    public let taxRate: String?
}
