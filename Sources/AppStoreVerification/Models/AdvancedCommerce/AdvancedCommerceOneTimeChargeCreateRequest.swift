/// The request your app provides when a customer buys a one-time charge product (Apple's
/// `OneTimeChargeCreateRequest`, operation `CREATE_ONE_TIME_CHARGE`).
///
/// Sign it with ``AdvancedCommerceInAppSignatureCreator`` and pass the result to StoreKit.
///
/// See [OneTimeChargeCreateRequest](https://developer.apple.com/documentation/advancedcommerceapi/onetimechargecreaterequest).
public struct AdvancedCommerceOneTimeChargeCreateRequest: AdvancedCommerceInAppRequest, Codable, Hashable, Sendable {
    /// The `operation` member of this request's JSON.
    public static let operation = "CREATE_ONE_TIME_CHARGE"
    /// The `version` member of this request's JSON.
    public static let version = "1"

    /// The currency of the price: an ISO 4217 code such as `USD`.
    public var currency: String

    /// The product to buy.
    public var item: AdvancedCommerceOneTimeChargeItem

    /// The request's metadata.
    public var requestInfo: AdvancedCommerceRequestInfo

    /// The tax code of the product.
    public var taxCode: String

    /// The storefront of the purchase: an ISO 3166-1 alpha-3 code such as `USA`.
    public var storefront: String?

    /// Creates a one-time charge request.
    ///
    /// - Parameters: as the properties describe.
    public init(currency: String, item: AdvancedCommerceOneTimeChargeItem, requestInfo: AdvancedCommerceRequestInfo,
                taxCode: String, storefront: String? = nil) {
        self.currency = currency
        self.item = item
        self.requestInfo = requestInfo
        self.taxCode = taxCode
        self.storefront = storefront
    }

    /// Checks Apple's rules: the currency and storefront codes and the item's SKU, description,
    /// display name and price.
    ///
    /// - Throws: ``AdvancedCommerceValidationError`` naming the first member that breaks a rule.
    public func validate() throws(AdvancedCommerceValidationError) {
        try AdvancedCommerceValidation.checkCurrency(currency, at: "currency")
        if let storefront { try AdvancedCommerceValidation.checkStorefront(storefront, at: "storefront") }
        try item.validate(at: "item")
    }

    private enum CodingKeys: String, CodingKey {
        case currency, item, operation, requestInfo, storefront, taxCode, version
    }

    /// Decodes Apple's JSON; an `operation` other than ``operation`` is an error.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let operation = try container.decodeIfPresent(String.self, forKey: .operation), operation != Self.operation {
            throw DecodingError.dataCorruptedError(forKey: .operation, in: container, debugDescription: "operation is not \(Self.operation)")
        }
        self.currency = try container.decode(String.self, forKey: .currency)
        self.item = try container.decode(AdvancedCommerceOneTimeChargeItem.self, forKey: .item)
        self.requestInfo = try container.decode(AdvancedCommerceRequestInfo.self, forKey: .requestInfo)
        self.storefront = try container.decodeIfPresent(String.self, forKey: .storefront)
        self.taxCode = try container.decode(String.self, forKey: .taxCode)
    }

    /// Encodes Apple's JSON, with ``operation`` and ``version``; absent members are left out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(currency, forKey: .currency)
        try container.encode(item, forKey: .item)
        try container.encode(Self.operation, forKey: .operation)
        try container.encode(requestInfo, forKey: .requestInfo)
        try container.encodeIfPresent(storefront, forKey: .storefront)
        try container.encode(taxCode, forKey: .taxCode)
        try container.encode(Self.version, forKey: .version)
    }
}
