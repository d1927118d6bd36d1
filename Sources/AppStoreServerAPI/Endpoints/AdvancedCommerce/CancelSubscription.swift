extension AppStoreServerAPIClient {
    /// Turns off automatic renewal of an Advanced Commerce subscription: the customer keeps access
    /// until the end of the current period.
    /// [Cancel a Subscription](https://developer.apple.com/documentation/advancedcommerceapi/cancel-a-subscription),
    /// `POST /advancedCommerce/v1/subscription/cancel/{transactionId}`.
    ///
    /// A retry after a 5xx or a timeout is safe: Apple recognises the request by its
    /// `requestInfo.requestReferenceId`.
    ///
    /// - Parameters:
    ///   - transactionId: the transaction ID of the auto-renewable subscription.
    ///   - request: the request metadata and storefront.
    /// - Returns: the subscription's transaction and renewal info after the change, verified.
    /// - Throws: ``AppStoreServerAPIError``; `invalidRequest` (nothing sent) when `request` breaks
    ///   one of Apple's rules (``AdvancedCommerceSubscriptionCancelRequest/validate()``).
    public func cancelSubscription(transactionId: String, request: AdvancedCommerceSubscriptionCancelRequest) async throws(AppStoreServerAPIError) -> AdvancedCommerceVerifiedResponse {
        let (body, call) = try await advancedCommerce(["subscription", "cancel"], transactionId: transactionId, request: request, answer: AdvancedCommerceSubscriptionCancelResponse.self)
        return try await verifyAdvancedCommerce(signedTransactionInfo: body.signedTransactionInfo, signedRenewalInfo: body.signedRenewalInfo, of: call)
    }
}
