extension AppStoreServerAPIClient {
    /// Asks the App Store to extend the renewal date of every eligible active subscription of one
    /// product: [Extend Subscription Renewal Dates for All Active Subscribers](https://developer.apple.com/documentation/appstoreserverapi/extend_subscription_renewal_dates_for_all_active_subscribers),
    /// `POST /inApps/v1/subscriptions/extend/mass`.
    ///
    /// Apple works through the subscriptions later; follow it with
    /// ``getStatusOfSubscriptionRenewalDateExtensions(requestIdentifier:productId:)``. A retry after
    /// a 5xx or a timeout is safe: Apple recognises the request's
    /// ``MassExtendRenewalDateRequest/requestIdentifier``.
    ///
    /// - Parameter request: the product, days, reason, storefronts and your request identifier.
    /// - Returns: Apple's acknowledgement, echoing your request identifier.
    /// - Throws: ``AppStoreServerAPIError``.
    public func extendRenewalDateForAllActiveSubscribers(request: MassExtendRenewalDateRequest) async throws(AppStoreServerAPIError) -> MassExtendRenewalDateResponse {
        let path: [APIRequest.PathSegment] = [.literal("inApps"), .literal("v1"), .literal("subscriptions"), .literal("extend"), .literal("mass")]
        let call = try APIRequest("POST", path, body: try encode(request, for: "POST /inApps/v1/subscriptions/extend/mass"))
        return try decode(MassExtendRenewalDateResponse.self, from: try await send(call), of: call)
    }
}
