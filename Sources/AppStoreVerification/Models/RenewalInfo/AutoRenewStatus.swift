/// The renewal status of an auto-renewable subscription.
public struct AutoRenewStatus: OpenEnumeration {
    /// The value as it appears in the JSON payload.
    public let rawValue: Int32

    /// Creates a value from its raw value; every raw value is accepted, documented or not.
    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// Automatic renewal is off: the subscription expires at the end of the current period.
    public static let off = AutoRenewStatus(rawValue: 0)

    /// Automatic renewal is on: the subscription renews at the end of the current period.
    public static let on = AutoRenewStatus(rawValue: 1)

    /// Every value Apple documents today.
    public static let documentedValues: [AutoRenewStatus] = [
        .off,
        .on,
    ]
}
