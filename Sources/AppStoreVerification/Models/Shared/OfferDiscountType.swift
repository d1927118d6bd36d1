/// The payment mode you configure for an offer.
public struct OfferDiscountType: OpenEnumeration {
    /// The value as it appears in the JSON payload.
    public let rawValue: String

    /// Creates a value from its raw value; every raw value is accepted, documented or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// A free trial: the customer pays nothing for the offer period.
    public static let freeTrial = OfferDiscountType(rawValue: "FREE_TRIAL")

    /// The customer pays a discounted price for each billing period of the offer.
    public static let payAsYouGo = OfferDiscountType(rawValue: "PAY_AS_YOU_GO")

    /// The customer pays a discounted price once, up front, for the whole offer period.
    public static let payUpFront = OfferDiscountType(rawValue: "PAY_UP_FRONT")

    /// A one-time discount on an in-app purchase that isn't an auto-renewable subscription.
    public static let oneTime = OfferDiscountType(rawValue: "ONE_TIME")

    /// Every value Apple documents today.
    public static let documentedValues: [OfferDiscountType] = [
        .freeTrial,
        .payAsYouGo,
        .payUpFront,
        .oneTime,
    ]
}
