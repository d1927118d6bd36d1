/// How the customer will pay for the next subscription period when it carries a commitment: all at once or
/// month by month.
public struct RenewalBillingPlanType: OpenEnumeration {
    /// The value as it appears in the JSON payload.
    public let rawValue: String

    /// Creates a value from its raw value; every raw value is accepted, documented or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The customer will pay for the whole subscription period up front.
    public static let billedUpfront = RenewalBillingPlanType(rawValue: "BILLED_UPFRONT")

    /// The customer will pay in monthly installments over a commitment period.
    public static let monthly = RenewalBillingPlanType(rawValue: "MONTHLY")

    /// Every value Apple documents today.
    public static let documentedValues: [RenewalBillingPlanType] = [
        .billedUpfront,
        .monthly,
    ]
}
