/// The type of the refund or revocation that applies to a transaction.
public struct RevocationType: OpenEnumeration {
    /// The value as it appears in the JSON payload.
    public let rawValue: String

    /// Creates a value from its raw value; every raw value is accepted, documented or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The App Store refunded the whole transaction; revoke the customer's access to the purchase.
    public static let refundFull = RevocationType(rawValue: "REFUND_FULL")

    /// The App Store refunded part of the transaction, in proportion to `revocationPercentage`.
    public static let refundProrated = RevocationType(rawValue: "REFUND_PRORATED")

    /// The purchase is no longer available to the customer through Family Sharing.
    public static let familyRevoke = RevocationType(rawValue: "FAMILY_REVOKE")

    /// Every value Apple documents today.
    public static let documentedValues: [RevocationType] = [
        .refundFull,
        .refundProrated,
        .familyRevoke,
    ]
}
