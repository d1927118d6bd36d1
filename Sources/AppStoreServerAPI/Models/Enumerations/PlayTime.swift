import AppStoreVerification

/// How long the customer used the app (Apple's `PlayTime`).
public struct PlayTime: OpenEnumeration {
    /// The value as the JSON carries it.
    public let rawValue: Int32
    /// Creates a value from its raw value; every raw value is accepted.
    public init(rawValue: Int32) { self.rawValue = rawValue }
    /// Not declared.
    public static let undeclared = PlayTime(rawValue: 0)
    /// 0 to 5 minutes.
    public static let zeroToFiveMinutes = PlayTime(rawValue: 1)
    /// 5 to 60 minutes.
    public static let fiveToSixtyMinutes = PlayTime(rawValue: 2)
    /// 1 to 6 hours.
    public static let oneToSixHours = PlayTime(rawValue: 3)
    /// 6 to 24 hours.
    public static let sixHoursToTwentyFourHours = PlayTime(rawValue: 4)
    /// 1 to 4 days.
    public static let oneDayToFourDays = PlayTime(rawValue: 5)
    /// 4 to 16 days.
    public static let fourDaysToSixteenDays = PlayTime(rawValue: 6)
    /// Over 16 days.
    public static let overSixteenDays = PlayTime(rawValue: 7)
    /// Every value Apple documented when this library was released.
    public static let documentedValues: [PlayTime] = [
        .undeclared,
        .zeroToFiveMinutes,
        .fiveToSixtyMinutes,
        .oneToSixHours,
        .sixHoursToTwentyFourHours,
        .oneDayToFourDays,
        .fourDaysToSixteenDays,
        .overSixteenDays,
    ]
}
