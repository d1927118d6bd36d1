import AppStoreVerification

/// The platform on which the customer consumed an in-app purchase (Apple's `Platform`, Send
/// Consumption Information V1).
public struct Platform: OpenEnumeration {
    /// The value as the JSON carries it.
    public let rawValue: Int32
    /// Creates a value from its raw value; every raw value is accepted.
    public init(rawValue: Int32) { self.rawValue = rawValue }
    /// Not declared.
    public static let undeclared = Platform(rawValue: 0)
    /// An Apple platform.
    public static let apple = Platform(rawValue: 1)
    /// A non-Apple platform.
    public static let nonApple = Platform(rawValue: 2)
    /// Every value Apple documented when this library was released.
    public static let documentedValues: [Platform] = [.undeclared, .apple, .nonApple]
}
