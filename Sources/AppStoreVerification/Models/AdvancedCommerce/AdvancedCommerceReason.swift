/// Why an item of an Advanced Commerce subscription changes (Apple's `reason` of a
/// `SubscriptionModifyChangeItem`).
///
/// See [SubscriptionModifyChangeItem](https://developer.apple.com/documentation/advancedcommerceapi/subscriptionmodifychangeitem).
public struct AdvancedCommerceReason: OpenEnumeration {
    /// The value as it appears in the JSON.
    public let rawValue: String

    /// Creates a value from its raw value; every raw value is accepted, documented or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The customer moves to a higher level of service.
    public static let upgrade = AdvancedCommerceReason(rawValue: "UPGRADE")

    /// The customer moves to a lower level of service.
    public static let downgrade = AdvancedCommerceReason(rawValue: "DOWNGRADE")

    /// The change applies an offer to the item.
    public static let applyOffer = AdvancedCommerceReason(rawValue: "APPLY_OFFER")

    /// Every value Apple documents today.
    public static let documentedValues: [AdvancedCommerceReason] = [
        .upgrade,
        .downgrade,
        .applyOffer,
    ]
}
