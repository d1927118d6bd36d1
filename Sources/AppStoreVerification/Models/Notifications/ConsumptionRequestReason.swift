/// The reason the customer gave when asking for a refund.
public struct ConsumptionRequestReason: OpenEnumeration {
    /// The value as it appears in the JSON payload.
    public let rawValue: String

    /// Creates a value from its raw value; every raw value is accepted, documented or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The customer didn't intend to make the purchase.
    public static let unintendedPurchase = ConsumptionRequestReason(rawValue: "UNINTENDED_PURCHASE")

    /// The customer had a problem receiving or using the purchase.
    public static let fulfillmentIssue = ConsumptionRequestReason(rawValue: "FULFILLMENT_ISSUE")

    /// The customer wasn't satisfied with the purchase.
    public static let unsatisfiedWithPurchase = ConsumptionRequestReason(rawValue: "UNSATISFIED_WITH_PURCHASE")

    /// The customer asked for a refund for a legal reason.
    public static let legal = ConsumptionRequestReason(rawValue: "LEGAL")

    /// The customer asked for a refund for another reason.
    public static let other = ConsumptionRequestReason(rawValue: "OTHER")

    /// Every value Apple documents today.
    public static let documentedValues: [ConsumptionRequestReason] = [
        .unintendedPurchase,
        .fulfillmentIssue,
        .unsatisfiedWithPurchase,
        .legal,
        .other,
    ]
}
