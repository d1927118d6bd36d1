import Foundation

/// Renewal information for an auto-renewable subscription, signed by the App Store (Apple's
/// `JWSRenewalInfoDecodedPayload`).
public struct RenewalInfo: SignedPayload, Codable, Hashable, Sendable {
    /// The kind of signed data this model decodes.
    public static var payloadKind: SignedPayloadKind { .renewalInfo }

    /// The reason the subscription expired.
    public let expirationIntent: ExpirationIntent?

    /// The transaction identifier of the original purchase.
    public let originalTransactionId: String?

    /// The product identifier of the product that renews at the next billing period.
    public let autoRenewProductId: String?

    /// The product identifier you created in App Store Connect.
    public let productId: String?

    /// The renewal status of the subscription.
    public let autoRenewStatus: AutoRenewStatus?

    /// Whether the App Store is trying to renew an expired subscription automatically.
    public let isInBillingRetryPeriod: Bool?

    /// Whether the subscription is subject to a price increase, and whether the customer answered it.
    public let priceIncreaseStatus: PriceIncreaseStatus?

    /// The time the billing grace period for subscription renewals expires.
    public let gracePeriodExpiresDate: Date?

    /// The type of the subscription offer that applies to the next renewal.
    public let offerType: OfferType?

    /// The offer code or the identifier of the promotional or win-back offer.
    public let offerIdentifier: String?

    /// The time the App Store signed the JWS data.
    public let signedDate: Date?

    /// The server environment, sandbox or production.
    public let environment: AppStoreEnvironment?

    /// The earliest start date of the subscription in a series of purchases that ignores all lapses
    /// of paid service shorter than 60 days.
    public let recentSubscriptionStartDate: Date?

    /// The time the most recent auto-renewable subscription purchase expires.
    public let renewalDate: Date?

    /// The three-letter ISO 4217 code of the currency of `renewalPrice`.
    public let currency: String?

    /// The price, in milliunits of `currency`, of the subscription that renews at the next billing
    /// period.
    public let renewalPrice: Int64?

    /// The payment mode of the offer that applies to the next renewal.
    public let offerDiscountType: OfferDiscountType?

    /// The win-back offer identifiers the customer is eligible to redeem, best offers first.
    public let eligibleWinBackOfferIds: [String]?

    /// The UUID an app may generate to associate a customer's purchase with its App Store transaction,
    /// as it appears in the payload; see ``appAccountTokenUUID``.
    public let appAccountToken: String?

    /// The unique identifier of the app download transaction.
    public let appTransactionId: String?

    /// The duration of the offer, as an ISO 8601 duration.
    public let offerPeriod: String?

    /// Renewal information present only for Advanced Commerce SKUs.
    public let advancedCommerceInfo: AdvancedCommerceRenewalInfo?

    /// What renews at the end of the current commitment, for a subscription billed monthly over a
    /// commitment period.
    public let commitmentInfo: RenewalCommitmentInfo?

    /// How the customer will pay for the next subscription period when it carries a commitment.
    public let renewalBillingPlanType: BillingPlanType?

    /// The device verification value: base64 of SHA-384 over the lowercased `deviceVerificationNonce`
    /// followed by the lowercased device verification ID of the device the data was signed for.
    /// StoreKit includes it in data it hands to the app (Xcode-signed data carries it).
    public let deviceVerification: String?

    /// The UUID used to compute ``deviceVerification``.
    public let deviceVerificationNonce: String?

    /// The JWS this renewal information was decoded from; `nil` when decoded from bare JSON. Not part
    /// of the JSON payload.
    package internal(set) var jws: CompactJWS? = nil

    /// ``appAccountToken`` as a UUID, or `nil` when absent or not a UUID.
    public var appAccountTokenUUID: UUID? { appAccountToken.flatMap(UUID.init(uuidString:)) }

    private enum CodingKeys: String, CodingKey {
        case deviceVerification, deviceVerificationNonce
        case expirationIntent, originalTransactionId, autoRenewProductId, productId, autoRenewStatus
        case isInBillingRetryPeriod, priceIncreaseStatus, gracePeriodExpiresDate, offerType
        case offerIdentifier, signedDate, environment, recentSubscriptionStartDate, renewalDate
        case currency, renewalPrice, offerDiscountType, eligibleWinBackOfferIds, appAccountToken
        case appTransactionId, offerPeriod, advancedCommerceInfo, commitmentInfo, renewalBillingPlanType
    }
}

extension RenewalInfo {
    /// Creates subscription renewal information, for tests and tools: the defaults describe a sandbox subscription that renews into the same product, signed now.
    ///
    /// Every member is as documented on its property; dates are kept to whole milliseconds, as Apple
    /// writes them. A member given as `nil` is absent from the JSON.
    ///
    /// Defaults and meanings:
    ///   - `autoRenewProductId`: Nil: `productId`.
    ///   - `signedDate`: Now by default.
    public init(
        originalTransactionId: String,
        productId: String,
        expirationIntent: ExpirationIntent? = nil,
        autoRenewProductId: String? = nil,
        autoRenewStatus: AutoRenewStatus? = .on,
        isInBillingRetryPeriod: Bool? = false,
        priceIncreaseStatus: PriceIncreaseStatus? = nil,
        gracePeriodExpiresDate: Date? = nil,
        offerType: OfferType? = nil,
        offerIdentifier: String? = nil,
        signedDate: Date? = Date(),
        environment: AppStoreEnvironment? = .sandbox,
        recentSubscriptionStartDate: Date? = nil,
        renewalDate: Date? = nil,
        currency: String? = nil,
        renewalPrice: Int64? = nil,
        offerDiscountType: OfferDiscountType? = nil,
        eligibleWinBackOfferIds: [String]? = nil,
        appAccountToken: String? = nil,
        appTransactionId: String? = nil,
        offerPeriod: String? = nil,
        advancedCommerceInfo: AdvancedCommerceRenewalInfo? = nil,
        commitmentInfo: RenewalCommitmentInfo? = nil,
        renewalBillingPlanType: BillingPlanType? = nil,
        deviceVerification: String? = nil,
        deviceVerificationNonce: String? = nil
    ) {
        self.originalTransactionId = originalTransactionId
        self.productId = productId
        self.expirationIntent = expirationIntent
        self.autoRenewProductId = autoRenewProductId ?? productId
        self.autoRenewStatus = autoRenewStatus
        self.isInBillingRetryPeriod = isInBillingRetryPeriod
        self.priceIncreaseStatus = priceIncreaseStatus
        self.gracePeriodExpiresDate = gracePeriodExpiresDate.map(AppStoreJSON.wholeMilliseconds)
        self.offerType = offerType
        self.offerIdentifier = offerIdentifier
        self.signedDate = signedDate.map(AppStoreJSON.wholeMilliseconds)
        self.environment = environment
        self.recentSubscriptionStartDate = recentSubscriptionStartDate.map(AppStoreJSON.wholeMilliseconds)
        self.renewalDate = renewalDate.map(AppStoreJSON.wholeMilliseconds)
        self.currency = currency
        self.renewalPrice = renewalPrice
        self.offerDiscountType = offerDiscountType
        self.eligibleWinBackOfferIds = eligibleWinBackOfferIds
        self.appAccountToken = appAccountToken
        self.appTransactionId = appTransactionId
        self.offerPeriod = offerPeriod
        self.advancedCommerceInfo = advancedCommerceInfo
        self.commitmentInfo = commitmentInfo
        self.renewalBillingPlanType = renewalBillingPlanType
        self.deviceVerification = deviceVerification
        self.deviceVerificationNonce = deviceVerificationNonce
    }
}
