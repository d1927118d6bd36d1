/// The in-app purchase or external purchase event for which the App Store sends a version 2 notification.
public struct NotificationTypeV2: OpenEnumeration {
    /// The value as it appears in the JSON payload.
    public let rawValue: String

    /// Creates a value from its raw value; every raw value is accepted, documented or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The customer subscribed to an auto-renewable subscription; the subtype says whether it is an initial
    /// purchase or a resubscription.
    public static let subscribed = NotificationTypeV2(rawValue: "SUBSCRIBED")

    /// The customer changed their subscription plan: an upgrade that takes effect now, a downgrade at the
    /// next renewal, or, without subtype, a return to the current subscription.
    public static let didChangeRenewalPref = NotificationTypeV2(rawValue: "DID_CHANGE_RENEWAL_PREF")

    /// The customer, or the App Store after a refund, turned automatic renewal of the subscription on or off.
    public static let didChangeRenewalStatus = NotificationTypeV2(rawValue: "DID_CHANGE_RENEWAL_STATUS")

    /// The customer redeemed a promotional offer, offer code or win-back offer.
    public static let offerRedeemed = NotificationTypeV2(rawValue: "OFFER_REDEEMED")

    /// The subscription renewed successfully, including after a billing problem (subtype BILLING_RECOVERY).
    public static let didRenew = NotificationTypeV2(rawValue: "DID_RENEW")

    /// The subscription expired; the subtype tells why.
    public static let expired = NotificationTypeV2(rawValue: "EXPIRED")

    /// The subscription failed to renew because of a billing issue; with subtype GRACE_PERIOD, keep giving
    /// access during the grace period.
    public static let didFailToRenew = NotificationTypeV2(rawValue: "DID_FAIL_TO_RENEW")

    /// The billing grace period ended without the subscription renewing; turn off access.
    public static let gracePeriodExpired = NotificationTypeV2(rawValue: "GRACE_PERIOD_EXPIRED")

    /// The App Store told the customer of a subscription price increase; the subtype says whether they have
    /// accepted it.
    public static let priceIncrease = NotificationTypeV2(rawValue: "PRICE_INCREASE")

    /// The App Store refunded a transaction for a consumable, non-consumable, auto-renewable or non-renewing
    /// subscription.
    public static let refund = NotificationTypeV2(rawValue: "REFUND")

    /// The App Store declined a refund request.
    public static let refundDeclined = NotificationTypeV2(rawValue: "REFUND_DECLINED")

    /// The customer asked for a refund, and the App Store asks you for consumption data to help decide it.
    public static let consumptionRequest = NotificationTypeV2(rawValue: "CONSUMPTION_REQUEST")

    /// The App Store extended the renewal date of a specific subscription at your request.
    public static let renewalExtended = NotificationTypeV2(rawValue: "RENEWAL_EXTENDED")

    /// A purchase the customer had through Family Sharing is no longer available to them.
    public static let revoke = NotificationTypeV2(rawValue: "REVOKE")

    /// A test notification you requested through the App Store Server API.
    public static let test = NotificationTypeV2(rawValue: "TEST")

    /// The App Store is extending, at your request, the renewal date of all eligible subscriptions; the
    /// subtype reports the summary or a failure.
    public static let renewalExtension = NotificationTypeV2(rawValue: "RENEWAL_EXTENSION")

    /// The App Store reversed a refund it had granted, after a dispute the customer raised; restore the
    /// content.
    public static let refundReversed = NotificationTypeV2(rawValue: "REFUND_REVERSED")

    /// The App Store created an external purchase token for your app but didn't receive a report of it.
    public static let externalPurchaseToken = NotificationTypeV2(rawValue: "EXTERNAL_PURCHASE_TOKEN")

    /// The customer bought a consumable, non-consumable or non-renewing subscription.
    public static let oneTimeCharge = NotificationTypeV2(rawValue: "ONE_TIME_CHARGE")

    /// A parent or guardian withdrew consent for a child's use of your app.
    public static let rescindConsent = NotificationTypeV2(rawValue: "RESCIND_CONSENT")

    /// The metadata of an Advanced Commerce subscription changed through the Advanced Commerce API.
    public static let metadataUpdate = NotificationTypeV2(rawValue: "METADATA_UPDATE")

    /// A subscription migrated to the Advanced Commerce API.
    public static let migration = NotificationTypeV2(rawValue: "MIGRATION")

    /// The price of an Advanced Commerce subscription changed through the Advanced Commerce API.
    public static let priceChange = NotificationTypeV2(rawValue: "PRICE_CHANGE")

    /// Every value Apple documents today.
    public static let documentedValues: [NotificationTypeV2] = [
        .subscribed,
        .didChangeRenewalPref,
        .didChangeRenewalStatus,
        .offerRedeemed,
        .didRenew,
        .expired,
        .didFailToRenew,
        .gracePeriodExpired,
        .priceIncrease,
        .refund,
        .refundDeclined,
        .consumptionRequest,
        .renewalExtended,
        .revoke,
        .test,
        .renewalExtension,
        .refundReversed,
        .externalPurchaseToken,
        .oneTimeCharge,
        .rescindConsent,
        .metadataUpdate,
        .migration,
        .priceChange,
    ]
}
