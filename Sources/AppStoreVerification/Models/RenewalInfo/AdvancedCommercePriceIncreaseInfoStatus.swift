/// The state of a price increase for an Advanced Commerce subscription item.
public struct AdvancedCommercePriceIncreaseInfoStatus: OpenEnumeration {
    /// The value as it appears in the JSON payload.
    public let rawValue: String

    /// Creates a value from its raw value; every raw value is accepted, documented or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The price increase is scheduled and doesn't need the customer's consent.
    public static let scheduled = AdvancedCommercePriceIncreaseInfoStatus(rawValue: "SCHEDULED")

    /// The price increase needs the customer's consent, and the customer hasn't responded yet.
    public static let pending = AdvancedCommercePriceIncreaseInfoStatus(rawValue: "PENDING")

    /// The customer accepted the price increase.
    public static let accepted = AdvancedCommercePriceIncreaseInfoStatus(rawValue: "ACCEPTED")

    /// Every value Apple documents today.
    public static let documentedValues: [AdvancedCommercePriceIncreaseInfoStatus] = [
        .scheduled,
        .pending,
        .accepted,
    ]
}
