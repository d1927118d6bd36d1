import AppStoreVerification
import Foundation

/// The JSON answer of `GET /customers/{appAccountToken}/entitlements` and `POST /transactions`.
///
/// ```json
/// {"appAccountToken": "…", "at": 1772366400000,
///  "entitlements": [{"productId": "…", "state": "subscribed", "expiresDate": 1775044740000, …}],
///  "statuses": [ …every product the customer ever had, with its state, granted or not… ],
///  "rejected": [{"item": "…", "code": "…", "message": "…"}],
///  "stored": true}
/// ```
/// Dates are milliseconds since 1970, as in App Store payloads. `entitlements` lists only what is
/// granted (state `purchased`, `subscribed` or `inGracePeriod`). `rejected` lists stored data that
/// did not verify when it was last verified (`ReceiptServer --reverify`, after the trusted roots
/// changed); it counts for nothing. `stored` appears only in the answer to `POST /transactions`.
/// The answer is computed from the records stored when each JWS was verified: nothing is verified
/// again to answer.
public struct EntitlementsAnswer: Codable, Sendable, Equatable {
    /// The customer.
    public var appAccountToken: String
    /// The instant the entitlements hold at, in milliseconds since 1970.
    public var at: Int64
    /// What the customer has access to at ``at``.
    public var entitlements: [EntitlementJSON]
    /// Every non-consumable and subscription of the customer with its state at ``at``.
    public var statuses: [EntitlementJSON]
    /// Stored data that did not verify at its last verification, and why.
    public var rejected: [RejectionJSON]
    /// `POST /transactions` only: whether the posted JWS was new.
    public var stored: Bool?
}

/// One entitlement in JSON: the engine's ``Entitlement`` with dates in milliseconds since 1970.
public struct EntitlementJSON: Codable, Sendable, Equatable {
    /// The product.
    public var productId: String
    /// `"Auto-Renewable Subscription"`, `"Non-Consumable"` or `"Non-Renewing Subscription"`.
    public var productType: String
    /// The transaction that decides the entitlement.
    public var transactionId: String
    /// Its original transaction ID (the purchase).
    public var originalTransactionId: String
    /// The subscription group, for auto-renewable subscriptions.
    public var subscriptionGroupIdentifier: String?
    /// When the deciding transaction was purchased.
    public var purchaseDate: Int64?
    /// When access ends (subscriptions).
    public var expiresDate: Int64?
    /// When it was revoked, if it was.
    public var revocationDate: Int64?
    /// `purchased`, `subscribed`, `inGracePeriod`, `inBillingRetryPeriod`, `expired` or `revoked`.
    public var state: String
    /// `PURCHASED` or `FAMILY_SHARED`.
    public var ownershipType: String?
    /// The renewal info's auto-renew status (1 on, 0 off), where known.
    public var autoRenewStatus: Int32?
    /// The product that renews next, where known.
    public var autoRenewProductId: String?
    /// Whether the App Store is retrying billing, where known.
    public var isInBillingRetryPeriod: Bool?
    /// The end of the billing grace period, where known.
    public var gracePeriodExpiresDate: Int64?
    /// Why the entitlement has this state.
    public var reason: String

    init(_ entitlement: Entitlement) {
        productId = entitlement.productId
        productType = entitlement.productType.rawValue
        transactionId = entitlement.transactionId
        originalTransactionId = entitlement.originalTransactionId
        subscriptionGroupIdentifier = entitlement.subscriptionGroupIdentifier
        purchaseDate = entitlement.purchaseDate.map(UnixMilliseconds.of)
        expiresDate = entitlement.expiresDate.map(UnixMilliseconds.of)
        revocationDate = entitlement.revocationDate.map(UnixMilliseconds.of)
        state = entitlement.state.rawValue
        ownershipType = entitlement.ownershipType?.rawValue
        autoRenewStatus = entitlement.autoRenewStatus?.rawValue
        autoRenewProductId = entitlement.autoRenewProductId
        isInBillingRetryPeriod = entitlement.isInBillingRetryPeriod
        gracePeriodExpiresDate = entitlement.gracePeriodExpiresDate.map(UnixMilliseconds.of)
        reason = entitlement.reason
    }
}

/// Stored signed data that did not count, and why.
public struct RejectionJSON: Codable, Sendable, Equatable {
    /// Which item (`"transaction 2000000123456789"`, `"notification.signedTransactionInfo"`, ...).
    public var item: String
    /// The verification or decoding error's code.
    public var code: String
    /// What failed.
    public var message: String
}
