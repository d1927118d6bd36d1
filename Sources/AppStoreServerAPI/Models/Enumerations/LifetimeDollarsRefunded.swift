import AppStoreVerification

/// The total, in USD, of refunds the customer received in your app across all platforms
/// (Apple's `LifetimeDollarsRefunded`).
public struct LifetimeDollarsRefunded: OpenEnumeration {
    /// The value as the JSON carries it.
    public let rawValue: Int32
    /// Creates a value from its raw value; every raw value is accepted.
    public init(rawValue: Int32) { self.rawValue = rawValue }
    /// Not declared.
    public static let undeclared = LifetimeDollarsRefunded(rawValue: 0)
    /// $0.
    public static let zeroDollars = LifetimeDollarsRefunded(rawValue: 1)
    /// $0.01 to $49.99.
    public static let oneCentToFortyNineDollarsAndNinetyNineCents = LifetimeDollarsRefunded(rawValue: 2)
    /// $50 to $99.99.
    public static let fiftyDollarsToNinetyNineDollarsAndNinetyNineCents = LifetimeDollarsRefunded(rawValue: 3)
    /// $100 to $499.99.
    public static let oneHundredDollarsToFourHundredNinetyNineDollarsAndNinetyNineCents = LifetimeDollarsRefunded(rawValue: 4)
    /// $500 to $999.99.
    public static let fiveHundredDollarsToNineHundredNinetyNineDollarsAndNinetyNineCents = LifetimeDollarsRefunded(rawValue: 5)
    /// $1000 to $1999.99.
    public static let oneThousandDollarsToOneThousandNineHundredNinetyNineDollarsAndNinetyNineCents = LifetimeDollarsRefunded(rawValue: 6)
    /// $2000 or more.
    public static let twoThousandDollarsOrGreater = LifetimeDollarsRefunded(rawValue: 7)
    /// Every value Apple documented when this library was released.
    public static let documentedValues: [LifetimeDollarsRefunded] = [
        .undeclared,
        .zeroDollars,
        .oneCentToFortyNineDollarsAndNinetyNineCents,
        .fiftyDollarsToNinetyNineDollarsAndNinetyNineCents,
        .oneHundredDollarsToFourHundredNinetyNineDollarsAndNinetyNineCents,
        .fiveHundredDollarsToNineHundredNinetyNineDollarsAndNinetyNineCents,
        .oneThousandDollarsToOneThousandNineHundredNinetyNineDollarsAndNinetyNineCents,
        .twoThousandDollarsOrGreater,
    ]
}
