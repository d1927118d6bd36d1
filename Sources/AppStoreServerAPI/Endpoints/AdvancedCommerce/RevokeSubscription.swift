extension AppStoreServerAPIClient {
    /// Ends an Advanced Commerce subscription and all its items at once, with a full or prorated
    /// refund. Turn service off when the `REFUND` notification arrives, as of its revocation date.
    /// [Revoke Subscription](https://developer.apple.com/documentation/advancedcommerceapi/revoke-subscription),
    /// `POST /advancedCommerce/v1/subscription/revoke/{transactionId}`.
    ///
    /// A retry after a 5xx or a timeout is safe: Apple recognises the request by its
    /// `requestInfo.requestReferenceId`.
    ///
    /// - Parameters:
    ///   - transactionId: the transaction ID of the auto-renewable subscription.
    ///   - request: the refund's reason and type, and the request metadata.
    /// - Returns: the subscription's transaction and renewal info after the change, verified.
    /// - Throws: ``AppStoreServerAPIError``; `invalidRequest` (nothing sent) when `request` breaks
    ///   one of Apple's rules (``AdvancedCommerceSubscriptionRevokeRequest/validate()``).
    public func revokeSubscription(transactionId: String, request: AdvancedCommerceSubscriptionRevokeRequest) async throws(AppStoreServerAPIError) -> AdvancedCommerceVerifiedResponse {
        let (body, call) = try await advancedCommerce(["subscription", "revoke"], transactionId: transactionId, request: request, answer: AdvancedCommerceSubscriptionRevokeResponse.self)
        return try await verifyAdvancedCommerce(signedTransactionInfo: body.signedTransactionInfo, signedRenewalInfo: body.signedRenewalInfo, of: call)
    }
}
