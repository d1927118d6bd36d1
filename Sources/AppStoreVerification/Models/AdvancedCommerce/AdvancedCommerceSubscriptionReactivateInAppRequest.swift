/// The request your app provides to turn automatic renewal of an Advanced Commerce subscription
/// back on (Apple's `SubscriptionReactivateInAppRequest`, operation `REACTIVATE_SUBSCRIPTION`).
///
/// Sign it with ``AdvancedCommerceInAppSignatureCreator`` and pass the result to StoreKit.
///
/// See [SubscriptionReactivateInAppRequest](https://developer.apple.com/documentation/advancedcommerceapi/subscriptionreactivateinapprequest).
public struct AdvancedCommerceSubscriptionReactivateInAppRequest: AdvancedCommerceInAppRequest, Codable, Hashable, Sendable {
    /// The `operation` member of this request's JSON.
    public static let operation = "REACTIVATE_SUBSCRIPTION"
    /// The `version` member of this request's JSON.
    public static let version = "1"

    /// The request's metadata.
    public var requestInfo: AdvancedCommerceRequestInfo

    /// The transaction ID of the subscription to reactivate.
    public var transactionId: String

    /// The items to reactivate.
    public var items: [AdvancedCommerceSubscriptionReactivateItem]?

    /// The storefront: an ISO 3166-1 alpha-3 code such as `USA`.
    public var storefront: String?

    /// Creates a reactivation request.
    ///
    /// - Parameters: as the properties describe.
    public init(requestInfo: AdvancedCommerceRequestInfo, transactionId: String, items: [AdvancedCommerceSubscriptionReactivateItem]? = nil,
                storefront: String? = nil) {
        self.requestInfo = requestInfo
        self.transactionId = transactionId
        self.items = items
        self.storefront = storefront
    }

    /// Checks Apple's rules: the storefront code and each item's SKU.
    ///
    /// - Throws: ``AdvancedCommerceValidationError`` naming the first member that breaks a rule.
    public func validate() throws(AdvancedCommerceValidationError) {
        typealias Rules = AdvancedCommerceValidation
        if let storefront { try Rules.checkStorefront(storefront, at: "storefront") }
        for (index, item) in (items ?? []).enumerated() { try item.validate(at: Rules.path("items", index: index)) }
    }

    private enum CodingKeys: String, CodingKey {
        case items, operation, requestInfo, storefront, transactionId, version
    }

    /// Decodes Apple's JSON; an `operation` other than ``operation`` is an error.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let operation = try container.decodeIfPresent(String.self, forKey: .operation), operation != Self.operation {
            throw DecodingError.dataCorruptedError(forKey: .operation, in: container, debugDescription: "operation is not \(Self.operation)")
        }
        self.items = try container.decodeIfPresent([AdvancedCommerceSubscriptionReactivateItem].self, forKey: .items)
        self.requestInfo = try container.decode(AdvancedCommerceRequestInfo.self, forKey: .requestInfo)
        self.storefront = try container.decodeIfPresent(String.self, forKey: .storefront)
        self.transactionId = try container.decode(String.self, forKey: .transactionId)
    }

    /// Encodes Apple's JSON, with ``operation`` and ``version``; absent members are left out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(items, forKey: .items)
        try container.encode(Self.operation, forKey: .operation)
        try container.encode(requestInfo, forKey: .requestInfo)
        try container.encodeIfPresent(storefront, forKey: .storefront)
        try container.encode(transactionId, forKey: .transactionId)
        try container.encode(Self.version, forKey: .version)
    }
}
