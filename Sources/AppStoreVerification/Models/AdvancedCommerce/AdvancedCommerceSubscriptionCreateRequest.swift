/// The request your app provides when a customer buys an Advanced Commerce auto-renewable
/// subscription (Apple's `SubscriptionCreateRequest`, operation `CREATE_SUBSCRIPTION`).
///
/// Sign it with ``AdvancedCommerceInAppSignatureCreator`` and pass the result to StoreKit.
///
/// See [SubscriptionCreateRequest](https://developer.apple.com/documentation/advancedcommerceapi/subscriptioncreaterequest).
public struct AdvancedCommerceSubscriptionCreateRequest: AdvancedCommerceInAppRequest, Codable, Hashable, Sendable {
    /// The `operation` member of this request's JSON.
    public static let operation = "CREATE_SUBSCRIPTION"
    /// The `version` member of this request's JSON.
    public static let version = "1"

    /// The currency of the prices: an ISO 4217 code such as `USD`.
    public var currency: String

    /// The subscription's description and display name; both are required here.
    public var descriptors: AdvancedCommerceDescriptors

    /// The subscription's items; at least one.
    public var items: [AdvancedCommerceSubscriptionCreateItem]

    /// The duration of one subscription period.
    public var period: AdvancedCommercePeriod

    /// The request's metadata.
    public var requestInfo: AdvancedCommerceRequestInfo

    /// The tax code of the subscription.
    public var taxCode: String

    /// The transaction ID of a previous subscription of the customer's, for a resubscription.
    public var previousTransactionId: String?

    /// The storefront of the purchase: an ISO 3166-1 alpha-3 code such as `USA`.
    public var storefront: String?

    /// Creates a subscription request.
    ///
    /// - Parameters: as the properties describe.
    public init(currency: String, descriptors: AdvancedCommerceDescriptors, items: [AdvancedCommerceSubscriptionCreateItem],
                period: AdvancedCommercePeriod, requestInfo: AdvancedCommerceRequestInfo, taxCode: String,
                previousTransactionId: String? = nil, storefront: String? = nil) {
        self.currency = currency
        self.descriptors = descriptors
        self.items = items
        self.period = period
        self.requestInfo = requestInfo
        self.taxCode = taxCode
        self.previousTransactionId = previousTransactionId
        self.storefront = storefront
    }

    /// Checks Apple's rules: the currency and storefront codes, the descriptors (both present,
    /// within their lengths), at least one item, and each item's members and offer.
    ///
    /// - Throws: ``AdvancedCommerceValidationError`` naming the first member that breaks a rule.
    public func validate() throws(AdvancedCommerceValidationError) {
        typealias Rules = AdvancedCommerceValidation
        try Rules.checkCurrency(currency, at: "currency")
        if let storefront { try Rules.checkStorefront(storefront, at: "storefront") }
        try Rules.checkDescription(try Rules.require(descriptors.description, at: "descriptors.description"), at: "descriptors.description")
        try Rules.checkDisplayName(try Rules.require(descriptors.displayName, at: "descriptors.displayName"), at: "descriptors.displayName")
        try Rules.checkNotEmpty(items.count, at: "items")
        for (index, item) in items.enumerated() {
            try item.validate(at: Rules.path("items", index: index))
        }
    }

    private enum CodingKeys: String, CodingKey {
        case currency, descriptors, items, operation, period, previousTransactionId, requestInfo, storefront, taxCode, version
    }

    /// Decodes Apple's JSON; an `operation` other than ``operation`` is an error.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let operation = try container.decodeIfPresent(String.self, forKey: .operation), operation != Self.operation {
            throw DecodingError.dataCorruptedError(forKey: .operation, in: container, debugDescription: "operation is not \(Self.operation)")
        }
        self.currency = try container.decode(String.self, forKey: .currency)
        self.descriptors = try container.decode(AdvancedCommerceDescriptors.self, forKey: .descriptors)
        self.items = try container.decode([AdvancedCommerceSubscriptionCreateItem].self, forKey: .items)
        self.period = try container.decode(AdvancedCommercePeriod.self, forKey: .period)
        self.previousTransactionId = try container.decodeIfPresent(String.self, forKey: .previousTransactionId)
        self.requestInfo = try container.decode(AdvancedCommerceRequestInfo.self, forKey: .requestInfo)
        self.storefront = try container.decodeIfPresent(String.self, forKey: .storefront)
        self.taxCode = try container.decode(String.self, forKey: .taxCode)
    }

    /// Encodes Apple's JSON, with ``operation`` and ``version``; absent members are left out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(currency, forKey: .currency)
        try container.encode(descriptors, forKey: .descriptors)
        try container.encode(items, forKey: .items)
        try container.encode(Self.operation, forKey: .operation)
        try container.encode(period, forKey: .period)
        try container.encodeIfPresent(previousTransactionId, forKey: .previousTransactionId)
        try container.encode(requestInfo, forKey: .requestInfo)
        try container.encodeIfPresent(storefront, forKey: .storefront)
        try container.encode(taxCode, forKey: .taxCode)
        try container.encode(Self.version, forKey: .version)
    }
}
