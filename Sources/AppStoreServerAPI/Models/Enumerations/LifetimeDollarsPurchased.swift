import AppStoreVerification

/// The total, in USD, of in-app purchases the customer made in your app across all platforms
/// (Apple's `LifetimeDollarsPurchased`).
public struct LifetimeDollarsPurchased: OpenEnumeration {
    /// The value as the JSON carries it.
    public let rawValue: Int32
    /// Creates a value from its raw value; every raw value is accepted.
    public init(rawValue: Int32) { self.rawValue = rawValue }
    /// Not declared.
    public static let undeclared = LifetimeDollarsPurchased(rawValue: 0)
    /// $0.
    public static let zeroDollars = LifetimeDollarsPurchased(rawValue: 1)
    /// $0.01 to $49.99.
    public static let oneCentToFortyNineDollarsAndNinetyNineCents = LifetimeDollarsPurchased(rawValue: 2)
    /// $50 to $99.99.
    public static let fiftyDollarsToNinetyNineDollarsAndNinetyNineCents = LifetimeDollarsPurchased(rawValue: 3)
    /// $100 to $499.99.
    public static let oneHundredDollarsToFourHundredNinetyNineDollarsAndNinetyNineCents = LifetimeDollarsPurchased(rawValue: 4)
    /// $500 to $999.99.
    public static let fiveHundredDollarsToNineHundredNinetyNineDollarsAndNinetyNineCents = LifetimeDollarsPurchased(rawValue: 5)
    /// $1000 to $1999.99.
    public static let oneThousandDollarsToOneThousandNineHundredNinetyNineDollarsAndNinetyNineCents = LifetimeDollarsPurchased(rawValue: 6)
    /// $2000 or more.
    public static let twoThousandDollarsOrGreater = LifetimeDollarsPurchased(rawValue: 7)
    /// Every value Apple documented when this library was released.
    public static let documentedValues: [LifetimeDollarsPurchased] = [
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
