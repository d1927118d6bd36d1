#if ServerAPIClient
extension AppStoreServerAPIClient {
    /// Answers a `CONSUMPTION_REQUEST` notification with consumption information: Send
    /// Consumption Information v2, `PUT /inApps/v2/transactions/consumption/{transactionId}`.
    ///
    /// - Parameters:
    ///   - transactionId: the transaction the refund request is about.
    ///   - request: the consumption information (the customer must have consented).
    /// - Throws: ``AppStoreServerAPIError``.
    public func sendConsumptionInformation(transactionId: String, request: ConsumptionRequest) async throws(AppStoreServerAPIError) {
        let path: [APIRequest.PathSegment] = [.literal("inApps"), .literal("v2"), .literal("transactions"), .literal("consumption"),
                                              .parameter(name: "transactionId", value: transactionId)]
        _ = try await send(try APIRequest("PUT", path, body: try encode(request, for: "PUT /inApps/v2/transactions/consumption")))
    }
}
#endif
