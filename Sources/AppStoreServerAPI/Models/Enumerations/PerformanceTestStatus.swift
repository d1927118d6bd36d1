import AppStoreVerification

/// The overall result of a retention-messaging performance test (Apple's `PerformanceTestStatus`).
public struct PerformanceTestStatus: OpenEnumeration {
    /// The value as the JSON carries it.
    public let rawValue: String
    /// Creates a value from its raw value; every raw value is accepted.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Still running.
    public static let pending = PerformanceTestStatus(rawValue: "PENDING")
    /// Passed.
    public static let pass = PerformanceTestStatus(rawValue: "PASS")
    /// Failed.
    public static let fail = PerformanceTestStatus(rawValue: "FAIL")
    /// Every value Apple documented when this library was released.
    public static let documentedValues: [PerformanceTestStatus] = [.pending, .pass, .fail]
}
