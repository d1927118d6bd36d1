/// The reason an auto-renewable subscription expired.
public struct ExpirationIntent: OpenEnumeration {
    /// The value as it appears in the JSON payload.
    public let rawValue: Int32

    /// Creates a value from its raw value; every raw value is accepted, documented or not.
    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// The customer cancelled the subscription.
    public static let customerCancelled = ExpirationIntent(rawValue: 1)

    /// A billing error, such as a payment method that is no longer valid.
    public static let billingError = ExpirationIntent(rawValue: 2)

    /// The customer didn't consent to a price increase that required consent.
    public static let customerDidNotConsentToPriceIncrease = ExpirationIntent(rawValue: 3)

    /// The product wasn't available for purchase at the time of renewal.
    public static let productNotAvailable = ExpirationIntent(rawValue: 4)

    /// The subscription expired for another reason.
    public static let other = ExpirationIntent(rawValue: 5)

    /// Every value Apple documents today.
    public static let documentedValues: [ExpirationIntent] = [
        .customerCancelled,
        .billingError,
        .customerDidNotConsentToPriceIncrease,
        .productNotAvailable,
        .other,
    ]
}
