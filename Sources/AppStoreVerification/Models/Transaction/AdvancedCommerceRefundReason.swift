/// The reason for a refund of an Advanced Commerce item.
public struct AdvancedCommerceRefundReason: OpenEnumeration {
    /// The value as it appears in the JSON payload.
    public let rawValue: String

    /// Creates a value from its raw value; every raw value is accepted, documented or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The customer didn't intend to make the purchase.
    public static let unintendedPurchase = AdvancedCommerceRefundReason(rawValue: "UNINTENDED_PURCHASE")

    /// The customer had a problem receiving or using the item.
    public static let fulfillmentIssue = AdvancedCommerceRefundReason(rawValue: "FULFILLMENT_ISSUE")

    /// The customer was unsatisfied with the item.
    public static let unsatisfiedWithPurchase = AdvancedCommerceRefundReason(rawValue: "UNSATISFIED_WITH_PURCHASE")

    /// The refund was made for a legal reason.
    public static let legal = AdvancedCommerceRefundReason(rawValue: "LEGAL")

    /// The refund was made for another reason.
    public static let other = AdvancedCommerceRefundReason(rawValue: "OTHER")

    /// The refund follows a change to the items of a subscription.
    public static let modifyItemsRefund = AdvancedCommerceRefundReason(rawValue: "MODIFY_ITEMS_REFUND")

    /// A sandbox request that simulates a declined refund.
    public static let simulateRefundDecline = AdvancedCommerceRefundReason(rawValue: "SIMULATE_REFUND_DECLINE")

    /// Every value Apple documents today.
    public static let documentedValues: [AdvancedCommerceRefundReason] = [
        .unintendedPurchase,
        .fulfillmentIssue,
        .unsatisfiedWithPurchase,
        .legal,
        .other,
        .modifyItemsRefund,
        .simulateRefundDecline,
    ]
}
