/// The type of a refund of an Advanced Commerce item.
public struct AdvancedCommerceRefundType: OpenEnumeration {
    /// The value as it appears in the JSON payload.
    public let rawValue: String

    /// Creates a value from its raw value; every raw value is accepted, documented or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// A refund of the item's full price.
    public static let full = AdvancedCommerceRefundType(rawValue: "FULL")

    /// A refund in proportion to the unused part of the item's period.
    public static let prorated = AdvancedCommerceRefundType(rawValue: "PRORATED")

    /// A refund of an amount you choose.
    public static let custom = AdvancedCommerceRefundType(rawValue: "CUSTOM")

    /// Every value Apple documents today.
    public static let documentedValues: [AdvancedCommerceRefundType] = [
        .full,
        .prorated,
        .custom,
    ]
}
