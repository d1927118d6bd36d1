extension AppStoreServerAPIClient {
    /// Moves an auto-renewable subscription bought through In-App Purchase to one you manage with
    /// the Advanced Commerce API.
    /// [Migrate a Subscription to Advanced Commerce API](https://developer.apple.com/documentation/advancedcommerceapi/migrate-subscription-to-advanced-commerce-api),
    /// `POST /advancedCommerce/v1/subscription/migrate/{transactionId}`.
    ///
    /// A retry after a 5xx or a timeout is safe: Apple recognises the request by its
    /// `requestInfo.requestReferenceId`.
    ///
    /// - Parameters:
    ///   - transactionId: the transaction ID of the auto-renewable subscription to migrate.
    ///   - request: the new subscription's descriptors, items, target product and tax code.
    /// - Returns: the migrated subscription's transaction and renewal info, verified.
    /// - Throws: ``AppStoreServerAPIError``; `invalidRequest` (nothing sent) when `request` breaks
    ///   one of Apple's rules (``AdvancedCommerceSubscriptionMigrateRequest/validate()``).
    public func migrateSubscriptionToAdvancedCommerceAPI(transactionId: String, request: AdvancedCommerceSubscriptionMigrateRequest) async throws(AppStoreServerAPIError) -> AdvancedCommerceVerifiedResponse {
        let (body, call) = try await advancedCommerce(["subscription", "migrate"], transactionId: transactionId, request: request, answer: AdvancedCommerceSubscriptionMigrateResponse.self)
        return try await verifyAdvancedCommerce(signedTransactionInfo: body.signedTransactionInfo, signedRenewalInfo: body.signedRenewalInfo, of: call)
    }
}
