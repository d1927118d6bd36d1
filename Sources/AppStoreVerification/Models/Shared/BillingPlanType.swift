/// How the customer pays, or will pay, for a subscription period that carries a commitment: all at once
/// or month by month. Used by transactions (`billingPlanType`) and renewal info
/// (`renewalBillingPlanType`, `commitmentRenewalBillingPlanType`).
public struct BillingPlanType: OpenEnumeration {
    /// The value as it appears in the JSON payload.
    public let rawValue: String

    /// Creates a value from its raw value; every raw value is accepted, documented or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The customer pays for the whole subscription period up front.
    public static let billedUpfront = BillingPlanType(rawValue: "BILLED_UPFRONT")

    /// The customer pays in monthly installments over a commitment period.
    public static let monthly = BillingPlanType(rawValue: "MONTHLY")

    /// Every value Apple documents today.
    public static let documentedValues: [BillingPlanType] = [
        .billedUpfront,
        .monthly,
    ]
}
