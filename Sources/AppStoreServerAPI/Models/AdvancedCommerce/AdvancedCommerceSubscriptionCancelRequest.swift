import AppStoreVerification

/// The body of Cancel a Subscription (Apple's `SubscriptionCancelRequest`): turns off automatic
/// renewal of an Advanced Commerce subscription.
///
/// See [SubscriptionCancelRequest](https://developer.apple.com/documentation/advancedcommerceapi/subscriptioncancelrequest).
public struct AdvancedCommerceSubscriptionCancelRequest: AdvancedCommerceAPIRequest, Codable, Hashable, Sendable {
    /// The request's metadata.
    public var requestInfo: AdvancedCommerceRequestInfo

    /// The storefront: an ISO 3166-1 alpha-3 code such as `USA`.
    public var storefront: String?

    /// Creates a cancel request.
    ///
    /// - Parameters: as the properties describe.
    public init(requestInfo: AdvancedCommerceRequestInfo, storefront: String? = nil) {
        self.requestInfo = requestInfo
        self.storefront = storefront
    }

    /// Checks Apple's rules: the storefront code.
    ///
    /// - Throws: `AdvancedCommerceValidationError` naming the first member that breaks a rule.
    public func validate() throws(AdvancedCommerceValidationError) {
        if let storefront { try AdvancedCommerceValidation.checkStorefront(storefront, at: "storefront") }
    }
}
