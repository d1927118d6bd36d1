extension AppStoreServerAPIClient {
    /// Raises or lowers the price of an Advanced Commerce subscription, or of items in it, from its
    /// next renewal (call it at least 24 hours before; the App Store asks the customer for consent
    /// where needed). Only active subscriptions outside billing retry qualify.
    /// [Change Subscription Price](https://developer.apple.com/documentation/advancedcommerceapi/change-subscription-price),
    /// `POST /advancedCommerce/v1/subscription/changePrice/{transactionId}`.
    ///
    /// A retry after a 5xx or a timeout is safe: Apple recognises the request by its
    /// `requestInfo.requestReferenceId`.
    ///
    /// - Parameters:
    ///   - transactionId: the transaction ID of the auto-renewable subscription.
    ///   - request: the new price of each SKU that changes.
    /// - Returns: the subscription's transaction and renewal info, verified.
    /// - Throws: ``AppStoreServerAPIError``; `invalidRequest` (nothing sent) when `request` breaks
    ///   one of Apple's rules (``AdvancedCommerceSubscriptionPriceChangeRequest/validate()``).
    public func changeSubscriptionPrice(transactionId: String, request: AdvancedCommerceSubscriptionPriceChangeRequest) async throws(AppStoreServerAPIError) -> AdvancedCommerceVerifiedResponse {
        let (body, call) = try await advancedCommerce(["subscription", "changePrice"], transactionId: transactionId, request: request, answer: AdvancedCommerceSubscriptionPriceChangeResponse.self)
        return try await verifyAdvancedCommerce(signedTransactionInfo: body.signedTransactionInfo, signedRenewalInfo: body.signedRenewalInfo, of: call)
    }
}
