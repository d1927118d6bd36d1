import AppStoreVerification

/// Whether your app delivered a consumable that works (Apple's `DeliveryStatus`, Send Consumption
/// Information v2).
public struct DeliveryStatus: OpenEnumeration {
    /// The value as the JSON carries it.
    public let rawValue: String
    /// Creates a value from its raw value; every raw value is accepted.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Delivered and working.
    public static let delivered = DeliveryStatus(rawValue: "DELIVERED")
    /// Not delivered: a quality issue.
    public static let undeliveredQualityIssue = DeliveryStatus(rawValue: "UNDELIVERED_QUALITY_ISSUE")
    /// Not delivered: the wrong item was delivered.
    public static let undeliveredWrongItem = DeliveryStatus(rawValue: "UNDELIVERED_WRONG_ITEM")
    /// Not delivered: a server outage.
    public static let undeliveredServerOutage = DeliveryStatus(rawValue: "UNDELIVERED_SERVER_OUTAGE")
    /// Not delivered: another reason.
    public static let undeliveredOther = DeliveryStatus(rawValue: "UNDELIVERED_OTHER")
    /// Every value Apple documented when this library was released.
    public static let documentedValues: [DeliveryStatus] = [
        .delivered, .undeliveredQualityIssue, .undeliveredWrongItem, .undeliveredServerOutage, .undeliveredOther,
    ]
}
