/// The reason for an Advanced Commerce discount offer.
public struct AdvancedCommerceOfferReason: OpenEnumeration {
    /// The value as it appears in the JSON payload.
    public let rawValue: String

    /// Creates a value from its raw value; every raw value is accepted, documented or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// An offer to acquire a new customer.
    public static let acquisition = AdvancedCommerceOfferReason(rawValue: "ACQUISITION")

    /// An offer to win back a customer whose subscription lapsed.
    public static let winBack = AdvancedCommerceOfferReason(rawValue: "WIN_BACK")

    /// An offer to retain a current subscriber.
    public static let retention = AdvancedCommerceOfferReason(rawValue: "RETENTION")

    /// Every value Apple documents today.
    public static let documentedValues: [AdvancedCommerceOfferReason] = [
        .acquisition,
        .winBack,
        .retention,
    ]
}
