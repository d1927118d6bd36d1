import Foundation

/// A transaction signed by the App Store: an in-app purchase, a restored purchase or a subscription
/// renewal (Apple's `JWSTransactionDecodedPayload`).
public struct Transaction: SignedPayload, Codable, Hashable, Sendable {
    /// The kind of signed data this model decodes.
    public static var payloadKind: SignedPayloadKind { .transaction }

    /// The unique identifier of the transaction, such as an in-app purchase, a restored purchase or a
    /// subscription renewal.
    ///
    /// Every App Store transaction carries it: a verified transaction without it is
    /// ``VerificationError/missingRequiredProperties(_:)``. In an unverified one it may be absent:
    /// then it reads as an empty string, and ``missingRequiredMembers`` names it.
    public var transactionId: String { storedTransactionId ?? "" }
    let storedTransactionId: String?

    /// The transaction identifier of the original purchase.
    ///
    /// Every App Store transaction carries it: a verified transaction without it is
    /// ``VerificationError/missingRequiredProperties(_:)``. In an unverified one it may be absent:
    /// then it reads as an empty string, and ``missingRequiredMembers`` names it.
    public var originalTransactionId: String { storedOriginalTransactionId ?? "" }
    let storedOriginalTransactionId: String?

    /// The unique identifier of subscription-purchase events across devices, including renewals.
    public let webOrderLineItemId: String?

    /// The bundle identifier of the app.
    ///
    /// Every App Store transaction carries it: a verified transaction without it is
    /// ``VerificationError/missingRequiredProperties(_:)``. In an unverified one it may be absent:
    /// then it reads as an empty string, and ``missingRequiredMembers`` names it.
    public var bundleId: String { storedBundleId ?? "" }
    let storedBundleId: String?

    /// The product identifier you created in App Store Connect.
    ///
    /// Every App Store transaction carries it: a verified transaction without it is
    /// ``VerificationError/missingRequiredProperties(_:)``. In an unverified one it may be absent:
    /// then it reads as an empty string, and ``missingRequiredMembers`` names it.
    public var productId: String { storedProductId ?? "" }
    let storedProductId: String?

    /// The identifier of the subscription group the subscription belongs to.
    public let subscriptionGroupIdentifier: String?

    /// The time the App Store charged the customer's account for the purchase, restored purchase,
    /// subscription, or subscription renewal after a lapse.
    ///
    /// Every App Store transaction carries it: a verified transaction without it is
    /// ``VerificationError/missingRequiredProperties(_:)``. In an unverified one it may be absent:
    /// then it reads as 1970-01-01T00:00:00Z, and ``missingRequiredMembers`` names it.
    public var purchaseDate: Date { storedPurchaseDate ?? Date(timeIntervalSince1970: 0) }
    let storedPurchaseDate: Date?

    /// The purchase date of the transaction identified by `originalTransactionId`.
    public let originalPurchaseDate: Date?

    /// The time an auto-renewable subscription expires or renews.
    public let expiresDate: Date?

    /// The number of consumable products purchased.
    public let quantity: Int32?

    /// The type of the in-app purchase product.
    ///
    /// Every App Store transaction carries it: a verified transaction without it is
    /// ``VerificationError/missingRequiredProperties(_:)``. In an unverified one it may be absent:
    /// then its raw value is empty, and ``missingRequiredMembers`` names it.
    public var type: ProductType { storedType ?? ProductType(rawValue: "") }
    let storedType: ProductType?

    /// The UUID an app may generate to associate a customer's purchase with its App Store transaction,
    /// as it appears in the payload; see ``appAccountTokenUUID``.
    public let appAccountToken: String?

    /// Whether the customer bought the purchase or has access to it through Family Sharing.
    public let inAppOwnershipType: InAppOwnershipType?

    /// The time the App Store signed the JWS data.
    public let signedDate: Date?

    /// The reason the App Store refunded the transaction or revoked it from Family Sharing.
    public let revocationReason: RevocationReason?

    /// The time the App Store refunded the transaction or revoked it from Family Sharing.
    public let revocationDate: Date?

    /// Whether the customer upgraded to another subscription.
    public let isUpgraded: Bool?

    /// The type of the offer that applies to the transaction.
    public let offerType: OfferType?

    /// The offer code or the identifier of the promotional or win-back offer.
    public let offerIdentifier: String?

    /// The server environment, sandbox or production.
    ///
    /// Every App Store transaction carries it: a verified transaction without it is
    /// ``VerificationError/missingRequiredProperties(_:)``. In an unverified one it may be absent:
    /// then its raw value is empty, and ``missingRequiredMembers`` names it.
    public var environment: AppStoreEnvironment { storedEnvironment ?? AppStoreEnvironment(rawValue: "") }
    let storedEnvironment: AppStoreEnvironment?

    /// The three-letter code of the country or region of the App Store storefront of the purchase.
    public let storefront: String?

    /// An Apple-defined value that uniquely identifies the App Store storefront of the purchase.
    public let storefrontId: String?

    /// Whether the transaction is a customer's purchase or a renewal the system initiated.
    public let transactionReason: TransactionReason?

    /// The three-letter ISO 4217 code of the currency of `price`.
    public let currency: String?

    /// The price, in milliunits of `currency`, of the purchase or offer you configured in App Store
    /// Connect.
    public let price: Int64?

    /// The payment mode of the offer.
    public let offerDiscountType: OfferDiscountType?

    /// The unique identifier of the app download transaction.
    public let appTransactionId: String?

    /// The duration of the offer, as an ISO 8601 duration.
    public let offerPeriod: String?

    /// The type of the refund or revocation that applies to the transaction.
    public let revocationType: RevocationType?

    /// The percentage of the transaction the App Store refunded or revoked, in milliunits (50000 is
    /// 50%).
    public let revocationPercentage: Int32?

    /// Transaction information present only for Advanced Commerce SKUs.
    public let advancedCommerceInfo: AdvancedCommerceTransactionInfo?

    /// How the customer pays for a subscription with a commitment: up front or monthly.
    public let billingPlanType: BillingPlanType?

    /// The commitment that the transaction is part of, for a subscription billed monthly over a
    /// commitment period.
    public let commitmentInfo: TransactionCommitmentInfo?

    /// The device verification value: base64 of SHA-384 over the lowercased `deviceVerificationNonce`
    /// followed by the lowercased device verification ID of the device the data was signed for.
    /// StoreKit includes it in data it hands to the app (Xcode-signed data carries it).
    public let deviceVerification: String?

    /// The UUID used to compute ``deviceVerification``.
    public let deviceVerificationNonce: String?

    /// The JWS this transaction was decoded from; `nil` when decoded from bare JSON. Not part of the
    /// JSON payload.
    package internal(set) var jws: CompactJWS? = nil

    /// The members every App Store transaction carries (`signedDate` among them, which stays optional
    /// here because every signed payload type shares its declaration).
    static let requiredMembers = ["transactionId", "originalTransactionId", "productId", "purchaseDate", "type", "bundleId", "environment", "signedDate"]

    /// The members every App Store transaction carries (`transactionId`, `originalTransactionId`,
    /// `productId`, `purchaseDate`, `type`, `bundleId`, `environment`, `signedDate`) that this
    /// payload lacks; empty for every genuine App Store transaction.
    public var missingRequiredMembers: [String] {
        var missing: [String] = []
        if storedTransactionId == nil { missing.append("transactionId") }
        if storedOriginalTransactionId == nil { missing.append("originalTransactionId") }
        if storedProductId == nil { missing.append("productId") }
        if storedPurchaseDate == nil { missing.append("purchaseDate") }
        if storedType == nil { missing.append("type") }
        if storedBundleId == nil { missing.append("bundleId") }
        if storedEnvironment == nil { missing.append("environment") }
        if signedDate == nil { missing.append("signedDate") }
        return missing
    }

    /// ``appAccountToken`` as a UUID, or `nil` when absent or not a UUID.
    public var appAccountTokenUUID: UUID? { appAccountToken.flatMap(UUID.init(uuidString:)) }

    private enum CodingKeys: String, CodingKey {
        case deviceVerification, deviceVerificationNonce
        case storedTransactionId = "transactionId", storedOriginalTransactionId = "originalTransactionId", webOrderLineItemId, storedBundleId = "bundleId", storedProductId = "productId"
        case subscriptionGroupIdentifier, storedPurchaseDate = "purchaseDate", originalPurchaseDate, expiresDate, quantity, storedType = "type"
        case appAccountToken, inAppOwnershipType, signedDate, revocationReason, revocationDate, isUpgraded
        case offerType, offerIdentifier, storedEnvironment = "environment", storefront, storefrontId, transactionReason
        case currency, price, offerDiscountType, appTransactionId, offerPeriod, revocationType
        case revocationPercentage, advancedCommerceInfo, billingPlanType, commitmentInfo
    }
}

extension Transaction {
    /// Creates a transaction, for tests and tools: the defaults make a sandbox purchase of a non-consumable by `com.example.app`, bought and signed now.
    ///
    /// Every member is as documented on its property; dates are kept to whole milliseconds, as Apple
    /// writes them. A member given as `nil` is absent from the JSON.
    ///
    /// Defaults and meanings:
    ///   - `originalTransactionId`: Nil: `transactionId` (a first purchase).
    ///   - `purchaseDate`: Now by default.
    ///   - `originalPurchaseDate`: Nil: `purchaseDate`.
    ///   - `signedDate`: Now by default.
    public init(
        transactionId: String,
        productId: String,
        originalTransactionId: String? = nil,
        webOrderLineItemId: String? = nil,
        bundleId: String = "com.example.app",
        subscriptionGroupIdentifier: String? = nil,
        purchaseDate: Date = Date(),
        originalPurchaseDate: Date? = nil,
        expiresDate: Date? = nil,
        quantity: Int32? = 1,
        type: ProductType = .nonConsumable,
        appAccountToken: String? = nil,
        inAppOwnershipType: InAppOwnershipType? = .purchased,
        signedDate: Date? = Date(),
        revocationReason: RevocationReason? = nil,
        revocationDate: Date? = nil,
        isUpgraded: Bool? = nil,
        offerType: OfferType? = nil,
        offerIdentifier: String? = nil,
        environment: AppStoreEnvironment = .sandbox,
        storefront: String? = "USA",
        storefrontId: String? = "143441",
        transactionReason: TransactionReason? = .purchase,
        currency: String? = nil,
        price: Int64? = nil,
        offerDiscountType: OfferDiscountType? = nil,
        appTransactionId: String? = nil,
        offerPeriod: String? = nil,
        revocationType: RevocationType? = nil,
        revocationPercentage: Int32? = nil,
        advancedCommerceInfo: AdvancedCommerceTransactionInfo? = nil,
        billingPlanType: BillingPlanType? = nil,
        commitmentInfo: TransactionCommitmentInfo? = nil,
        deviceVerification: String? = nil,
        deviceVerificationNonce: String? = nil
    ) {
        self.storedTransactionId = transactionId
        self.storedProductId = productId
        self.storedOriginalTransactionId = originalTransactionId ?? transactionId
        self.webOrderLineItemId = webOrderLineItemId
        self.storedBundleId = bundleId
        self.subscriptionGroupIdentifier = subscriptionGroupIdentifier
        self.storedPurchaseDate = AppStoreJSON.wholeMilliseconds(purchaseDate)
        self.originalPurchaseDate = AppStoreJSON.wholeMilliseconds(originalPurchaseDate ?? purchaseDate)
        self.expiresDate = expiresDate.map(AppStoreJSON.wholeMilliseconds)
        self.quantity = quantity
        self.storedType = type
        self.appAccountToken = appAccountToken
        self.inAppOwnershipType = inAppOwnershipType
        self.signedDate = signedDate.map(AppStoreJSON.wholeMilliseconds)
        self.revocationReason = revocationReason
        self.revocationDate = revocationDate.map(AppStoreJSON.wholeMilliseconds)
        self.isUpgraded = isUpgraded
        self.offerType = offerType
        self.offerIdentifier = offerIdentifier
        self.storedEnvironment = environment
        self.storefront = storefront
        self.storefrontId = storefrontId
        self.transactionReason = transactionReason
        self.currency = currency
        self.price = price
        self.offerDiscountType = offerDiscountType
        self.appTransactionId = appTransactionId
        self.offerPeriod = offerPeriod
        self.revocationType = revocationType
        self.revocationPercentage = revocationPercentage
        self.advancedCommerceInfo = advancedCommerceInfo
        self.billingPlanType = billingPlanType
        self.commitmentInfo = commitmentInfo
        self.deviceVerification = deviceVerification
        self.deviceVerificationNonce = deviceVerificationNonce
    }
}
