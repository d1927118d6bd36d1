import AppStoreVerification

/// How much of an in-app purchase the customer consumed (Apple's `ConsumptionStatus`, Send
/// Consumption Information V1).
public struct ConsumptionStatus: OpenEnumeration {
    /// The value as the JSON carries it.
    public let rawValue: Int32
    /// Creates a value from its raw value; every raw value is accepted.
    public init(rawValue: Int32) { self.rawValue = rawValue }
    /// Not declared.
    public static let undeclared = ConsumptionStatus(rawValue: 0)
    /// Not consumed.
    public static let notConsumed = ConsumptionStatus(rawValue: 1)
    /// Partially consumed.
    public static let partiallyConsumed = ConsumptionStatus(rawValue: 2)
    /// Fully consumed.
    public static let fullyConsumed = ConsumptionStatus(rawValue: 3)
    /// Every value Apple documented when this library was released.
    public static let documentedValues: [ConsumptionStatus] = [.undeclared, .notConsumed, .partiallyConsumed, .fullyConsumed]
}
