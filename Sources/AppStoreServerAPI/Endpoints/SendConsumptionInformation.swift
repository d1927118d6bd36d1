import AppStoreVerification
extension AppStoreServerAPIClient {
    /// Answers a `CONSUMPTION_REQUEST` notification with consumption information: Send
    /// Consumption Information v2, `PUT /inApps/v2/transactions/consumption/{transactionId}`.
    ///
    /// The request is checked against Apple's documented rules first
    /// (``ConsumptionRequest/check(productType:)``): one Apple would refuse is not sent.
    ///
    /// - Parameters:
    ///   - transactionId: the transaction the refund request is about.
    ///   - request: the consumption information (the customer must have consented).
    ///   - productType: the transaction's type, when known (from its verified `Transaction`): a
    ///     percentage for an auto-renewable subscription is then refused before sending.
    /// - Throws: ``AppStoreServerAPIError``: `invalidRequest`, with nothing sent, for a request that
    ///   breaks Apple's rules.
    public func sendConsumptionInformation(transactionId: String, request: ConsumptionRequest,
                                           productType: ProductType? = nil) async throws(AppStoreServerAPIError) {
        try request.check(productType: productType)
        let path: [APIRequest.PathSegment] = [.literal("inApps"), .literal("v2"), .literal("transactions"), .literal("consumption"),
                                              .parameter(name: "transactionId", value: transactionId)]
        _ = try await send(try APIRequest("PUT", path, body: try encode(request, for: "PUT /inApps/v2/transactions/consumption")))
    }
}
