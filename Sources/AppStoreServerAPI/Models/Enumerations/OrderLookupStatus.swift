import AppStoreVerification

/// Whether an order ID is valid (Apple's `OrderLookupStatus`).
public struct OrderLookupStatus: OpenEnumeration {
    /// The value as the JSON carries it.
    public let rawValue: Int32
    /// Creates a value from its raw value; every raw value is accepted.
    public init(rawValue: Int32) { self.rawValue = rawValue }
    /// The order ID is valid and the response lists its transactions.
    public static let valid = OrderLookupStatus(rawValue: 0)
    /// The order ID is not valid (or not this app's).
    public static let invalid = OrderLookupStatus(rawValue: 1)
    /// Every value Apple documented when this library was released.
    public static let documentedValues: [OrderLookupStatus] = [.valid, .invalid]
}
