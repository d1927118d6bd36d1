/// The type of subscription offer or in-app purchase offer that applies to a transaction or to the next
/// renewal.
public struct OfferType: OpenEnumeration {
    /// The value as it appears in the JSON payload.
    public let rawValue: Int32

    /// Creates a value from its raw value; every raw value is accepted, documented or not.
    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// An introductory offer, for customers new to the subscription group.
    public static let introductoryOffer = OfferType(rawValue: 1)

    /// A promotional offer, which your app presents to eligible customers.
    public static let promotionalOffer = OfferType(rawValue: 2)

    /// An offer with a subscription offer code or one-time-use code that the customer redeemed.
    public static let offerCode = OfferType(rawValue: 3)

    /// A win-back offer, for customers whose subscription has lapsed.
    public static let winBackOffer = OfferType(rawValue: 4)

    /// Every value Apple documents today.
    public static let documentedValues: [OfferType] = [
        .introductoryOffer,
        .promotionalOffer,
        .offerCode,
        .winBackOffer,
    ]
}
