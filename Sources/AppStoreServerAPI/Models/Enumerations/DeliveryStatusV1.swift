import AppStoreVerification

/// Whether your app delivered an in-app purchase that works (Apple's `DeliveryStatusV1`, Send
/// Consumption Information V1; version 2 uses ``DeliveryStatus``).
public struct DeliveryStatusV1: OpenEnumeration {
    /// The value as the JSON carries it.
    public let rawValue: Int32
    /// Creates a value from its raw value; every raw value is accepted.
    public init(rawValue: Int32) { self.rawValue = rawValue }
    /// Delivered and working properly.
    public static let deliveredAndWorkingProperly = DeliveryStatusV1(rawValue: 0)
    /// Not delivered: a quality issue.
    public static let didNotDeliverDueToQualityIssue = DeliveryStatusV1(rawValue: 1)
    /// The wrong item was delivered.
    public static let deliveredWrongItem = DeliveryStatusV1(rawValue: 2)
    /// Not delivered: a server outage.
    public static let didNotDeliverDueToServerOutage = DeliveryStatusV1(rawValue: 3)
    /// Not delivered: an in-game currency change.
    public static let didNotDeliverDueToInGameCurrencyChange = DeliveryStatusV1(rawValue: 4)
    /// Not delivered: another reason.
    public static let didNotDeliverForOtherReason = DeliveryStatusV1(rawValue: 5)
    /// Every value Apple documented when this library was released.
    public static let documentedValues: [DeliveryStatusV1] = [
        .deliveredAndWorkingProperly,
        .didNotDeliverDueToQualityIssue,
        .deliveredWrongItem,
        .didNotDeliverDueToServerOutage,
        .didNotDeliverDueToInGameCurrencyChange,
        .didNotDeliverForOtherReason,
    ]
}
