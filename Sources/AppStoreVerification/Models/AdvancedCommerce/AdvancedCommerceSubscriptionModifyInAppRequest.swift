/// The request your app provides to change an Advanced Commerce subscription: add, change or
/// remove items, change its period or descriptors (Apple's `SubscriptionModifyInAppRequest`,
/// operation `MODIFY_SUBSCRIPTION`).
///
/// Sign it with ``AdvancedCommerceInAppSignatureCreator`` and pass the result to StoreKit.
///
/// See [SubscriptionModifyInAppRequest](https://developer.apple.com/documentation/advancedcommerceapi/subscriptionmodifyinapprequest).
public struct AdvancedCommerceSubscriptionModifyInAppRequest: AdvancedCommerceInAppRequest, Codable, Hashable, Sendable {
    /// The `operation` member of this request's JSON.
    public static let operation = "MODIFY_SUBSCRIPTION"
    /// The `version` member of this request's JSON.
    public static let version = "1"

    /// The request's metadata.
    public var requestInfo: AdvancedCommerceRequestInfo

    /// The transaction ID of the subscription to change.
    public var transactionId: String

    /// Whether the subscription keeps its billing cycle.
    public var retainBillingCycle: Bool

    /// Items to add; at least one when present.
    public var addItems: [AdvancedCommerceSubscriptionModifyAddItem]?

    /// Items to replace; at least one when present.
    public var changeItems: [AdvancedCommerceSubscriptionModifyChangeItem]?

    /// Items to remove; at least one when present.
    public var removeItems: [AdvancedCommerceSubscriptionModifyRemoveItem]?

    /// The currency of the prices: an ISO 4217 code such as `USD`.
    public var currency: String?

    /// A new description or display name for the subscription.
    public var descriptors: AdvancedCommerceSubscriptionModifyDescriptors?

    /// A new period for the subscription.
    public var periodChange: AdvancedCommerceSubscriptionModifyPeriodChange?

    /// The storefront: an ISO 3166-1 alpha-3 code such as `USA`.
    public var storefront: String?

    /// The tax code of the subscription.
    public var taxCode: String?

    /// Creates a subscription change request.
    ///
    /// - Parameters: as the properties describe.
    public init(requestInfo: AdvancedCommerceRequestInfo, transactionId: String, retainBillingCycle: Bool,
                addItems: [AdvancedCommerceSubscriptionModifyAddItem]? = nil,
                changeItems: [AdvancedCommerceSubscriptionModifyChangeItem]? = nil,
                removeItems: [AdvancedCommerceSubscriptionModifyRemoveItem]? = nil, currency: String? = nil,
                descriptors: AdvancedCommerceSubscriptionModifyDescriptors? = nil,
                periodChange: AdvancedCommerceSubscriptionModifyPeriodChange? = nil, storefront: String? = nil,
                taxCode: String? = nil) {
        self.requestInfo = requestInfo
        self.transactionId = transactionId
        self.retainBillingCycle = retainBillingCycle
        self.addItems = addItems
        self.changeItems = changeItems
        self.removeItems = removeItems
        self.currency = currency
        self.descriptors = descriptors
        self.periodChange = periodChange
        self.storefront = storefront
        self.taxCode = taxCode
    }

    /// Checks Apple's rules: the currency and storefront codes, non-empty item lists when present,
    /// each item's members and offer, and the descriptors' lengths.
    ///
    /// - Throws: ``AdvancedCommerceValidationError`` naming the first member that breaks a rule.
    public func validate() throws(AdvancedCommerceValidationError) {
        typealias Rules = AdvancedCommerceValidation
        if let currency { try Rules.checkCurrency(currency, at: "currency") }
        if let storefront { try Rules.checkStorefront(storefront, at: "storefront") }
        if let addItems {
            try Rules.checkNotEmpty(addItems.count, at: "addItems")
            for (index, item) in addItems.enumerated() { try item.validate(at: Rules.path("addItems", index: index)) }
        }
        if let changeItems {
            try Rules.checkNotEmpty(changeItems.count, at: "changeItems")
            for (index, item) in changeItems.enumerated() { try item.validate(at: Rules.path("changeItems", index: index)) }
        }
        if let removeItems {
            try Rules.checkNotEmpty(removeItems.count, at: "removeItems")
            for (index, item) in removeItems.enumerated() { try item.validate(at: Rules.path("removeItems", index: index)) }
        }
        try descriptors?.validate(at: "descriptors")
    }

    private enum CodingKeys: String, CodingKey {
        case addItems, changeItems, currency, descriptors, operation, periodChange, removeItems, requestInfo, retainBillingCycle
        case storefront, taxCode, transactionId, version
    }

    /// Decodes Apple's JSON; an `operation` other than ``operation`` is an error.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let operation = try container.decodeIfPresent(String.self, forKey: .operation), operation != Self.operation {
            throw DecodingError.dataCorruptedError(forKey: .operation, in: container, debugDescription: "operation is not \(Self.operation)")
        }
        self.addItems = try container.decodeIfPresent([AdvancedCommerceSubscriptionModifyAddItem].self, forKey: .addItems)
        self.changeItems = try container.decodeIfPresent([AdvancedCommerceSubscriptionModifyChangeItem].self, forKey: .changeItems)
        self.currency = try container.decodeIfPresent(String.self, forKey: .currency)
        self.descriptors = try container.decodeIfPresent(AdvancedCommerceSubscriptionModifyDescriptors.self, forKey: .descriptors)
        self.periodChange = try container.decodeIfPresent(AdvancedCommerceSubscriptionModifyPeriodChange.self, forKey: .periodChange)
        self.removeItems = try container.decodeIfPresent([AdvancedCommerceSubscriptionModifyRemoveItem].self, forKey: .removeItems)
        self.requestInfo = try container.decode(AdvancedCommerceRequestInfo.self, forKey: .requestInfo)
        self.retainBillingCycle = try container.decode(Bool.self, forKey: .retainBillingCycle)
        self.storefront = try container.decodeIfPresent(String.self, forKey: .storefront)
        self.taxCode = try container.decodeIfPresent(String.self, forKey: .taxCode)
        self.transactionId = try container.decode(String.self, forKey: .transactionId)
    }

    /// Encodes Apple's JSON, with ``operation`` and ``version``; absent members are left out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(addItems, forKey: .addItems)
        try container.encodeIfPresent(changeItems, forKey: .changeItems)
        try container.encodeIfPresent(currency, forKey: .currency)
        try container.encodeIfPresent(descriptors, forKey: .descriptors)
        try container.encode(Self.operation, forKey: .operation)
        try container.encodeIfPresent(periodChange, forKey: .periodChange)
        try container.encodeIfPresent(removeItems, forKey: .removeItems)
        try container.encode(requestInfo, forKey: .requestInfo)
        try container.encode(retainBillingCycle, forKey: .retainBillingCycle)
        try container.encodeIfPresent(storefront, forKey: .storefront)
        try container.encodeIfPresent(taxCode, forKey: .taxCode)
        try container.encode(transactionId, forKey: .transactionId)
        try container.encode(Self.version, forKey: .version)
    }
}
