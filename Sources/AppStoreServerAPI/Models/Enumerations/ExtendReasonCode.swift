import AppStoreVerification

/// Why a subscription's renewal date is extended (Apple's `ExtendReasonCode`).
public struct ExtendReasonCode: OpenEnumeration {
    /// The value as the JSON carries it.
    public let rawValue: Int32
    /// Creates a value from its raw value; every raw value is accepted.
    public init(rawValue: Int32) { self.rawValue = rawValue }
    /// No reason given.
    public static let undeclared = ExtendReasonCode(rawValue: 0)
    /// Customer satisfaction.
    public static let customerSatisfaction = ExtendReasonCode(rawValue: 1)
    /// Another reason.
    public static let other = ExtendReasonCode(rawValue: 2)
    /// A service issue or outage.
    public static let serviceIssueOrOutage = ExtendReasonCode(rawValue: 3)
    /// Every value Apple documented when this library was released.
    public static let documentedValues: [ExtendReasonCode] = [.undeclared, .customerSatisfaction, .other, .serviceIssueOrOutage]
}
