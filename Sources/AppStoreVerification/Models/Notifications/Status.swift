/// The status of an auto-renewable subscription as of the notification's `signedDate`.
public struct Status: OpenEnumeration {
    /// The value as it appears in the JSON payload.
    public let rawValue: Int32

    /// Creates a value from its raw value; every raw value is accepted, documented or not.
    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// The subscription is active.
    public static let active = Status(rawValue: 1)

    /// The subscription expired.
    public static let expired = Status(rawValue: 2)

    /// The subscription is in the billing retry period.
    public static let billingRetry = Status(rawValue: 3)

    /// The subscription is in the billing grace period.
    public static let billingGracePeriod = Status(rawValue: 4)

    /// The App Store revoked the subscription.
    public static let revoked = Status(rawValue: 5)

    /// Every value Apple documents today.
    public static let documentedValues: [Status] = [
        .active,
        .expired,
        .billingRetry,
        .billingGracePeriod,
        .revoked,
    ]
}
