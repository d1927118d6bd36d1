/// The duration of a single cycle of an auto-renewable subscription sold through the Advanced Commerce API,
/// as an ISO 8601 duration.
public struct AdvancedCommercePeriod: OpenEnumeration {
    /// The value as it appears in the JSON payload.
    public let rawValue: String

    /// Creates a value from its raw value; every raw value is accepted, documented or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// One week.
    public static let oneWeek = AdvancedCommercePeriod(rawValue: "P1W")

    /// One month.
    public static let oneMonth = AdvancedCommercePeriod(rawValue: "P1M")

    /// Two months.
    public static let twoMonths = AdvancedCommercePeriod(rawValue: "P2M")

    /// Three months.
    public static let threeMonths = AdvancedCommercePeriod(rawValue: "P3M")

    /// Six months.
    public static let sixMonths = AdvancedCommercePeriod(rawValue: "P6M")

    /// One year.
    public static let oneYear = AdvancedCommercePeriod(rawValue: "P1Y")

    /// Every value Apple documents today.
    public static let documentedValues: [AdvancedCommercePeriod] = [
        .oneWeek,
        .oneMonth,
        .twoMonths,
        .threeMonths,
        .sixMonths,
        .oneYear,
    ]
}
