import AppStoreVerification

/// The outcome you prefer for a refund request (Apple's `RefundPreferenceV1`, Send Consumption
/// Information V1; version 2 uses ``RefundPreference``).
public struct RefundPreferenceV1: OpenEnumeration {
    /// The value as the JSON carries it.
    public let rawValue: Int32
    /// Creates a value from its raw value; every raw value is accepted.
    public init(rawValue: Int32) { self.rawValue = rawValue }
    /// Not declared.
    public static let undeclared = RefundPreferenceV1(rawValue: 0)
    /// You prefer Apple grant the refund.
    public static let preferGrant = RefundPreferenceV1(rawValue: 1)
    /// You prefer Apple decline the refund.
    public static let preferDecline = RefundPreferenceV1(rawValue: 2)
    /// No preference.
    public static let noPreference = RefundPreferenceV1(rawValue: 3)
    /// Every value Apple documented when this library was released.
    public static let documentedValues: [RefundPreferenceV1] = [.undeclared, .preferGrant, .preferDecline, .noPreference]
}
