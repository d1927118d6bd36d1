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

    /// Creates a value with the members given, for tests and tools; a member left out is absent from the JSON.
    ///
    /// Every member is as documented on its property; dates are kept to whole milliseconds, as Apple
    /// writes them. A member given as `nil` is absent from the JSON.
    public init(
        descriptors: AdvancedCommerceDescriptors? = nil,
        estimatedTax: Int64? = nil,
        items: [AdvancedCommerceTransactionItem]? = nil,
        period: AdvancedCommercePeriod? = nil,
        requestReferenceId: String? = nil,
        taxCode: String? = nil,
        taxExclusivePrice: Int64? = nil,
        taxRate: String? = nil
    ) {
        self.descriptors = descriptors
        self.estimatedTax = estimatedTax
        self.items = items
        self.period = period
        self.requestReferenceId = requestReferenceId
        self.taxCode = taxCode
        self.taxExclusivePrice = taxExclusivePrice
        self.taxRate = taxRate
    }
}
