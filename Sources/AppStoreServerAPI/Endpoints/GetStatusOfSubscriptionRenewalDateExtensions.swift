extension AppStoreServerAPIClient {
    /// Whether a request to extend every active subscription of a product has finished, and how
    /// many subscriptions it extended: [Get Status of Subscription Renewal Date Extensions](https://developer.apple.com/documentation/appstoreserverapi/get_status_of_subscription_renewal_date_extensions),
    /// `GET /inApps/v1/subscriptions/extend/mass/{productId}/{requestIdentifier}`.
    ///
    /// - Parameters:
    ///   - requestIdentifier: the ``MassExtendRenewalDateRequest/requestIdentifier`` you sent to
    ///     ``extendRenewalDateForAllActiveSubscribers(request:)``.
    ///   - productId: the subscription's product ID.
    /// - Returns: the request's progress.
    /// - Throws: ``AppStoreServerAPIError``; Apple's ``APIErrorCode/statusRequestNotFound`` for an
    ///   unknown request.
    public func getStatusOfSubscriptionRenewalDateExtensions(requestIdentifier: String,
                                                            productId: String) async throws(AppStoreServerAPIError) -> MassExtendRenewalDateStatusResponse {
        let call = try APIRequest("GET", [.literal("inApps"), .literal("v1"), .literal("subscriptions"), .literal("extend"), .literal("mass"),
                                          .parameter(name: "productId", value: productId),
                                          .parameter(name: "requestIdentifier", value: requestIdentifier)])
        return try decode(MassExtendRenewalDateStatusResponse.self, from: try await send(call), of: call)
    }
}
