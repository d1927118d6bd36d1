/// Whether an auto-renewable subscription is subject to a price increase the customer has answered.
public struct PriceIncreaseStatus: OpenEnumeration {
    /// The value as it appears in the JSON payload.
    public let rawValue: Int32

    /// Creates a value from its raw value; every raw value is accepted, documented or not.
    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// The customer hasn't responded to a price increase that requires their consent.
    public static let customerHasNotResponded = PriceIncreaseStatus(rawValue: 0)

    /// The customer consented to the price increase, or the App Store told them of an increase that doesn't
    /// need consent.
    public static let customerConsentedOrWasNotifiedWithoutNeedingConsent = PriceIncreaseStatus(rawValue: 1)

    /// Every value Apple documents today.
    public static let documentedValues: [PriceIncreaseStatus] = [
        .customerHasNotResponded,
        .customerConsentedOrWasNotifiedWithoutNeedingConsent,
    ]
}
