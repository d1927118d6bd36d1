import AppStoreVerification

/// The version of Get Transaction History to call (Apple's `GetTransactionHistoryVersion`): the
/// path segment after `/inApps/`.
public struct GetTransactionHistoryVersion: OpenEnumeration {
    /// The value as the path carries it.
    public let rawValue: String
    /// Creates a value from its raw value; every raw value is accepted.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Version 1, which Apple deprecated in favour of version 2.
    public static let v1 = GetTransactionHistoryVersion(rawValue: "v1")
    /// Version 2, which Apple recommends (the default).
    public static let v2 = GetTransactionHistoryVersion(rawValue: "v2")
    /// Every value Apple documented when this library was released.
    public static let documentedValues: [GetTransactionHistoryVersion] = [.v1, .v2]
}
