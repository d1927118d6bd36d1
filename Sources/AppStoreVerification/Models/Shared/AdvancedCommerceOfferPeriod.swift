/// The period of an Advanced Commerce discount offer, as an ISO 8601 duration.
public struct AdvancedCommerceOfferPeriod: OpenEnumeration {
    /// The value as it appears in the JSON payload.
    public let rawValue: String

    /// Creates a value from its raw value; every raw value is accepted, documented or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Three days.
    public static let threeDays = AdvancedCommerceOfferPeriod(rawValue: "P3D")

    /// One week.
    public static let oneWeek = AdvancedCommerceOfferPeriod(rawValue: "P1W")

    /// Two weeks.
    public static let twoWeeks = AdvancedCommerceOfferPeriod(rawValue: "P2W")

    /// One month.
    public static let oneMonth = AdvancedCommerceOfferPeriod(rawValue: "P1M")

    /// Two months.
    public static let twoMonths = AdvancedCommerceOfferPeriod(rawValue: "P2M")

    /// Three months.
    public static let threeMonths = AdvancedCommerceOfferPeriod(rawValue: "P3M")

    /// Six months.
    public static let sixMonths = AdvancedCommerceOfferPeriod(rawValue: "P6M")

    /// Nine months.
    public static let nineMonths = AdvancedCommerceOfferPeriod(rawValue: "P9M")

    /// One year.
    public static let oneYear = AdvancedCommerceOfferPeriod(rawValue: "P1Y")

    /// Every value Apple documents today.
    public static let documentedValues: [AdvancedCommerceOfferPeriod] = [
        .threeDays,
        .oneWeek,
        .twoWeeks,
        .oneMonth,
        .twoMonths,
        .threeMonths,
        .sixMonths,
        .nineMonths,
        .oneYear,
    ]
}
