extension AppStoreServerAPIClient {
    /// Changes the SKUs, display names or descriptions of an Advanced Commerce subscription and its
    /// items, without changing its billing or service (for an upgrade or a downgrade, the app sends
    /// an `AdvancedCommerceSubscriptionModifyInAppRequest` instead).
    /// [Change Subscription Metadata](https://developer.apple.com/documentation/advancedcommerceapi/change-subscription-metadata),
    /// `POST /advancedCommerce/v1/subscription/changeMetadata/{transactionId}`.
    ///
    /// A retry after a 5xx or a timeout is safe: Apple recognises the request by its
    /// `requestInfo.requestReferenceId`.
    ///
    /// - Parameters:
    ///   - transactionId: the transaction ID of the auto-renewable subscription.
    ///   - request: the new descriptors and item metadata.
    /// - Returns: the subscription's transaction and renewal info after the change, verified.
    /// - Throws: ``AppStoreServerAPIError``; `invalidRequest` (nothing sent) when `request` breaks
    ///   one of Apple's rules (``AdvancedCommerceSubscriptionChangeMetadataRequest/validate()``).
    public func changeSubscriptionMetadata(transactionId: String, request: AdvancedCommerceSubscriptionChangeMetadataRequest) async throws(AppStoreServerAPIError) -> AdvancedCommerceVerifiedResponse {
        let (body, call) = try await advancedCommerce(["subscription", "changeMetadata"], transactionId: transactionId, request: request, answer: AdvancedCommerceSubscriptionChangeMetadataResponse.self)
        return try await verifyAdvancedCommerce(signedTransactionInfo: body.signedTransactionInfo, signedRenewalInfo: body.signedRenewalInfo, of: call)
    }
}
