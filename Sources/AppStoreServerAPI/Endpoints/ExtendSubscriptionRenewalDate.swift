extension AppStoreServerAPIClient {
    /// Extends an active subscription's renewal date: Extend a Subscription Renewal Date,
    /// `PUT /inApps/v1/subscriptions/extend/{originalTransactionId}`.
    ///
    /// A retry after a 5xx or a timeout is safe: Apple recognises the request's
    /// ``ExtendRenewalDateRequest/requestIdentifier``.
    ///
    /// - Parameters:
    ///   - originalTransactionId: the subscription's original transaction ID.
    ///   - request: days, reason and your request identifier.
    /// - Returns: Apple's answer.
    /// - Throws: ``AppStoreServerAPIError``.
    public func extendSubscriptionRenewalDate(originalTransactionId: String,
                                              request: ExtendRenewalDateRequest) async throws(AppStoreServerAPIError) -> ExtendRenewalDateResponse {
        let path: [APIRequest.PathSegment] = [.literal("inApps"), .literal("v1"), .literal("subscriptions"), .literal("extend"),
                                              .parameter(name: "originalTransactionId", value: originalTransactionId)]
        let call = try APIRequest("PUT", path, body: try encode(request, for: "PUT /inApps/v1/subscriptions/extend"))
        return try decode(ExtendRenewalDateResponse.self, from: try await send(call), of: call)
    }
}
