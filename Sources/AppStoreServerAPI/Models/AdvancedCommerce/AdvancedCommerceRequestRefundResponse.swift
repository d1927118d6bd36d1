/// The response of Request Transaction Refund (Apple's `RequestRefundResponse`), as Apple sends
/// it: the signed data unverified.
///
/// ``AppStoreServerAPIClient`` verifies it and returns an ``AdvancedCommerceVerifiedResponse``;
/// this model is for tests and tools that handle the JSON themselves.
///
/// See [RequestRefundResponse](https://developer.apple.com/documentation/advancedcommerceapi/requestrefundresponse).
public struct AdvancedCommerceRequestRefundResponse: Codable, Hashable, Sendable {
    /// The subscription's renewal info, signed by the App Store (a JWS), when Apple sends it
    /// (Apple's model makes it optional: a one-time charge has no renewal info).
    public var signedRenewalInfo: String?

    /// The transaction, signed by the App Store (a JWS).
    public var signedTransactionInfo: String

    /// Creates a response.
    ///
    /// - Parameters: as the properties describe.
    public init(signedRenewalInfo: String? = nil, signedTransactionInfo: String) {
        self.signedRenewalInfo = signedRenewalInfo
        self.signedTransactionInfo = signedTransactionInfo
    }
}
