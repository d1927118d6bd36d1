/// When a requested change to an Advanced Commerce subscription takes effect (Apple's `effective`).
///
/// See [effective](https://developer.apple.com/documentation/advancedcommerceapi/effective).
public struct AdvancedCommerceEffective: OpenEnumeration {
    /// The value as it appears in the JSON.
    public let rawValue: String

    /// Creates a value from its raw value; every raw value is accepted, documented or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The change takes effect at once.
    public static let immediately = AdvancedCommerceEffective(rawValue: "IMMEDIATELY")

    /// The change takes effect at the start of the next billing cycle.
    public static let nextBillCycle = AdvancedCommerceEffective(rawValue: "NEXT_BILL_CYCLE")

    /// Every value Apple documents today.
    public static let documentedValues: [AdvancedCommerceEffective] = [
        .immediately,
        .nextBillCycle,
    ]
}
