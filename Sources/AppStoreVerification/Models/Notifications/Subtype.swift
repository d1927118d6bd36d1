/// Details about the event of a version 2 notification; present only for some notification types.
public struct Subtype: OpenEnumeration {
    /// The value as it appears in the JSON payload.
    public let rawValue: String

    /// Creates a value from its raw value; every raw value is accepted, documented or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The customer's first purchase of the subscription, or first access to it through Family Sharing.
    public static let initialBuy = Subtype(rawValue: "INITIAL_BUY")

    /// The customer resubscribed, or received access through Family Sharing, to a subscription in the same
    /// group.
    public static let resubscribe = Subtype(rawValue: "RESUBSCRIBE")

    /// The customer downgraded or cross-graded their subscription; the change takes effect at the next
    /// renewal.
    public static let downgrade = Subtype(rawValue: "DOWNGRADE")

    /// The customer upgraded their subscription; the upgrade takes effect immediately.
    public static let upgrade = Subtype(rawValue: "UPGRADE")

    /// The customer turned automatic renewal on.
    public static let autoRenewEnabled = Subtype(rawValue: "AUTO_RENEW_ENABLED")

    /// The customer turned automatic renewal off, or the App Store did after a refund.
    public static let autoRenewDisabled = Subtype(rawValue: "AUTO_RENEW_DISABLED")

    /// The subscription expired after the customer turned off automatic renewal.
    public static let voluntary = Subtype(rawValue: "VOLUNTARY")

    /// The subscription expired because the billing retry period ended without a successful billing.
    public static let billingRetry = Subtype(rawValue: "BILLING_RETRY")

    /// The subscription expired because the customer didn't consent to a price increase.
    public static let priceIncrease = Subtype(rawValue: "PRICE_INCREASE")

    /// The subscription failed to renew because of a billing issue; keep giving access during the grace
    /// period.
    public static let gracePeriod = Subtype(rawValue: "GRACE_PERIOD")

    /// The customer hasn't yet responded to a price increase that requires their consent.
    public static let pending = Subtype(rawValue: "PENDING")

    /// The customer consented to the price increase, or the App Store told them of an increase that doesn't
    /// need consent.
    public static let accepted = Subtype(rawValue: "ACCEPTED")

    /// A subscription that previously failed to renew has now renewed successfully.
    public static let billingRecovery = Subtype(rawValue: "BILLING_RECOVERY")

    /// The subscription expired because the product wasn't available for purchase when it tried to renew.
    public static let productNotForSale = Subtype(rawValue: "PRODUCT_NOT_FOR_SALE")

    /// The App Store finished extending the renewal date of all eligible subscribers; the payload carries a
    /// summary.
    public static let summary = Subtype(rawValue: "SUMMARY")

    /// The renewal-date extension failed for one subscription.
    public static let failure = Subtype(rawValue: "FAILURE")

    /// An external purchase token was created but not reported to Apple.
    public static let unreported = Subtype(rawValue: "UNREPORTED")

    /// Every value Apple documents today.
    public static let documentedValues: [Subtype] = [
        .initialBuy,
        .resubscribe,
        .downgrade,
        .upgrade,
        .autoRenewEnabled,
        .autoRenewDisabled,
        .voluntary,
        .billingRetry,
        .priceIncrease,
        .gracePeriod,
        .pending,
        .accepted,
        .billingRecovery,
        .productNotForSale,
        .summary,
        .failure,
        .unreported,
    ]
}
