/// The response of Change Subscription Price (Apple's `SubscriptionPriceChangeResponse`), as Apple sends it: the signed data unverified.
///
/// AppStoreServerAPIClient verifies both and returns an AdvancedCommerceVerifiedResponse;
/// this model is for tests and tools that handle the JSON themselves.
///
/// See [SubscriptionPriceChangeResponse](https://developer.apple.com/documentation/advancedcommerceapi/subscriptionpricechangeresponse).
public struct AdvancedCommerceSubscriptionPriceChangeResponse: Codable, Hashable, Sendable {
    /// The subscription's renewal info, signed by the App Store (a JWS).
    public var signedRenewalInfo: String

    /// The transaction, signed by the App Store (a JWS).
    public var signedTransactionInfo: String

    /// Creates a response.
    ///
    /// - Parameters: as the properties describe.
    public init(signedRenewalInfo: String, signedTransactionInfo: String) {
        self.signedRenewalInfo = signedRenewalInfo
        self.signedTransactionInfo = signedTransactionInfo
    }
}
