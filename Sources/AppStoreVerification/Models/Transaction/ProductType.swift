/// The type of an in-app purchase product (Apple's `type` field).
public struct ProductType: OpenEnumeration {
    /// The value as it appears in the JSON payload.
    public let rawValue: String

    /// Creates a value from its raw value; every raw value is accepted, documented or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// An auto-renewable subscription.
    public static let autoRenewableSubscription = ProductType(rawValue: "Auto-Renewable Subscription")

    /// A non-consumable in-app purchase, bought once and kept.
    public static let nonConsumable = ProductType(rawValue: "Non-Consumable")

    /// A consumable in-app purchase, used up and bought again.
    public static let consumable = ProductType(rawValue: "Consumable")

    /// A non-renewing subscription, which ends without renewing automatically.
    public static let nonRenewingSubscription = ProductType(rawValue: "Non-Renewing Subscription")

    /// Every value Apple documents today.
    public static let documentedValues: [ProductType] = [
        .autoRenewableSubscription,
        .nonConsumable,
        .consumable,
        .nonRenewingSubscription,
    ]
}
