import AppStoreVerification

/// The body of Revoke Subscription (Apple's `SubscriptionRevokeRequest`): ends an Advanced
/// Commerce subscription and all its items at once, with a full or prorated refund.
///
/// See [SubscriptionRevokeRequest](https://developer.apple.com/documentation/advancedcommerceapi/subscriptionrevokerequest).
public struct AdvancedCommerceSubscriptionRevokeRequest: AdvancedCommerceAPIRequest, Codable, Hashable, Sendable {
    /// The request's metadata.
    public var requestInfo: AdvancedCommerceRequestInfo

    /// Why the subscription is refunded.
    public var refundReason: AdvancedCommerceRefundReason

    /// The kind of refund: full or prorated.
    public var refundType: AdvancedCommerceRefundType

    /// Whether you prefer the refund to go ahead when Apple's risk checks would decline it
    /// (Apple's `refundRiskingPreference`).
    public var refundRiskingPreference: Bool

    /// The storefront: an ISO 3166-1 alpha-3 code such as `USA`.
    public var storefront: String?

    /// Creates a revoke request.
    ///
    /// - Parameters: as the properties describe.
    public init(requestInfo: AdvancedCommerceRequestInfo, refundReason: AdvancedCommerceRefundReason, refundType: AdvancedCommerceRefundType,
                refundRiskingPreference: Bool, storefront: String? = nil) {
        self.requestInfo = requestInfo
        self.refundReason = refundReason
        self.refundType = refundType
        self.refundRiskingPreference = refundRiskingPreference
        self.storefront = storefront
    }

    /// Checks Apple's rules: the storefront code.
    ///
    /// - Throws: `AdvancedCommerceValidationError` naming the first member that breaks a rule.
    public func validate() throws(AdvancedCommerceValidationError) {
        if let storefront { try AdvancedCommerceValidation.checkStorefront(storefront, at: "storefront") }
    }
}
