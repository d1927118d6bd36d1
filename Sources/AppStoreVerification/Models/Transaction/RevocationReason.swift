/// The reason the App Store refunded a transaction or revoked it from Family Sharing.
public struct RevocationReason: OpenEnumeration {
    /// The value as it appears in the JSON payload.
    public let rawValue: Int32

    /// Creates a value from its raw value; every raw value is accepted, documented or not.
    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// The App Store refunded the transaction for another reason, such as an accidental purchase.
    public static let refundedForOtherReason = RevocationReason(rawValue: 0)

    /// The App Store refunded the transaction because of an actual or perceived issue within your app.
    public static let refundedDueToIssue = RevocationReason(rawValue: 1)

    /// Every value Apple documents today.
    public static let documentedValues: [RevocationReason] = [
        .refundedForOtherReason,
        .refundedDueToIssue,
    ]
}
