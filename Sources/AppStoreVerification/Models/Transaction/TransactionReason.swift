/// The cause of a purchase transaction: a customer's purchase, or a renewal of an auto-renewable subscription
/// that the system initiates.
public struct TransactionReason: OpenEnumeration {
    /// The value as it appears in the JSON payload.
    public let rawValue: String

    /// Creates a value from its raw value; every raw value is accepted, documented or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The customer initiated the purchase, including an upgrade, downgrade or cross-grade within a
    /// subscription group.
    public static let purchase = TransactionReason(rawValue: "PURCHASE")

    /// The App Store renewed an auto-renewable subscription automatically.
    public static let renewal = TransactionReason(rawValue: "RENEWAL")

    /// Every value Apple documents today.
    public static let documentedValues: [TransactionReason] = [
        .purchase,
        .renewal,
    ]
}
