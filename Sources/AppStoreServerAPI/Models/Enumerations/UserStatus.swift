import AppStoreVerification

/// The status of the customer's account in your app (Apple's `UserStatus`).
public struct UserStatus: OpenEnumeration {
    /// The value as the JSON carries it.
    public let rawValue: Int32
    /// Creates a value from its raw value; every raw value is accepted.
    public init(rawValue: Int32) { self.rawValue = rawValue }
    /// Not declared.
    public static let undeclared = UserStatus(rawValue: 0)
    /// Active.
    public static let active = UserStatus(rawValue: 1)
    /// Suspended.
    public static let suspended = UserStatus(rawValue: 2)
    /// Terminated.
    public static let terminated = UserStatus(rawValue: 3)
    /// Limited access.
    public static let limitedAccess = UserStatus(rawValue: 4)
    /// Every value Apple documented when this library was released.
    public static let documentedValues: [UserStatus] = [.undeclared, .active, .suspended, .terminated, .limitedAccess]
}
