import AppStoreVerification

/// One item of a refund request (Apple's `RequestRefundItem`): its SKU, and the refund's amount,
/// reason and type.
///
/// See [RequestRefundItem](https://developer.apple.com/documentation/advancedcommerceapi/requestrefunditem).
public struct AdvancedCommerceRequestRefundItem: Codable, Hashable, Sendable {
    /// The SKU of the item to refund; at most 128 characters.
    public var SKU: String

    /// Why the item is refunded.
    public var refundReason: AdvancedCommerceRefundReason

    /// The kind of refund: full, prorated or custom.
    public var refundType: AdvancedCommerceRefundType

    /// Whether to revoke the customer's access to the item.
    public var revoke: Bool

    /// The amount to refund, in milliunits of the currency, for a custom refund; 0 or more.
    public var refundAmount: Int64?

    /// Creates a refund item.
    ///
    /// - Parameters: as the properties describe.
    public init(SKU: String, refundReason: AdvancedCommerceRefundReason, refundType: AdvancedCommerceRefundType, revoke: Bool,
                refundAmount: Int64? = nil) {
        self.SKU = SKU
        self.refundReason = refundReason
        self.refundType = refundType
        self.revoke = revoke
        self.refundAmount = refundAmount
    }

    /// Checks Apple's rules for the item's members, naming them under `field`.
    func validate(at field: String) throws(AdvancedCommerceValidationError) {
        typealias Rules = AdvancedCommerceValidation
        try Rules.checkSKU(SKU, at: Rules.path(field, "SKU"))
        if let refundAmount { try Rules.checkAmount(refundAmount, at: Rules.path(field, "refundAmount")) }
    }
}
