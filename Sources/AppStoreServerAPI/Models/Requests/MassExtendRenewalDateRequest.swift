/// The body of Extend Subscription Renewal Dates for All Active Subscribers (Apple's
/// `MassExtendRenewalDateRequest`): one product's active subscriptions, optionally only in some
/// storefronts.
public struct MassExtendRenewalDateRequest: Sendable, Hashable, Encodable {
    /// Days to extend by: 1 to 90.
    public var extendByDays: Int32
    /// Why.
    public var extendReasonCode: ExtendReasonCode
    /// Your unique ID of this request (a UUID is a good choice): pass it to
    /// ``AppStoreServerAPIClient/getStatusOfSubscriptionRenewalDateExtensions(requestIdentifier:productId:)``.
    public var requestIdentifier: String
    /// Only subscribers in these storefronts (ISO 3166-1 alpha-3 codes such as `USA`); `nil` for all.
    public var storefrontCountryCodes: [String]?
    /// The auto-renewable subscription's product ID.
    public var productId: String

    /// A request to extend every active subscription of `productId` by `extendByDays` days.
    ///
    /// - Parameters: as the properties describe.
    public init(extendByDays: Int32, extendReasonCode: ExtendReasonCode, requestIdentifier: String,
                storefrontCountryCodes: [String]? = nil, productId: String) {
        self.extendByDays = extendByDays
        self.extendReasonCode = extendReasonCode
        self.requestIdentifier = requestIdentifier
        self.storefrontCountryCodes = storefrontCountryCodes
        self.productId = productId
    }
}
