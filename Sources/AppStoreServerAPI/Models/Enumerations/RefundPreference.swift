import AppStoreVerification

/// The outcome you prefer for a refund request (Apple's `RefundPreference`).
public struct RefundPreference: OpenEnumeration {
    /// The value as the JSON carries it.
    public let rawValue: String
    /// Creates a value from its raw value; every raw value is accepted.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Decline the refund.
    public static let decline = RefundPreference(rawValue: "DECLINE")
    /// Grant a full refund.
    public static let grantFull = RefundPreference(rawValue: "GRANT_FULL")
    /// Grant a prorated refund.
    public static let grantProrated = RefundPreference(rawValue: "GRANT_PRORATED")
    /// Every value Apple documented when this library was released.
    public static let documentedValues: [RefundPreference] = [.decline, .grantFull, .grantProrated]
}
