extension AppStoreServerAPIClient {
    /// Answers a `CONSUMPTION_REQUEST` notification with version 1 of consumption information:
    /// [Send Consumption Information V1](https://developer.apple.com/documentation/appstoreserverapi/send-consumption-information-v1),
    /// `PUT /inApps/v1/transactions/consumption/{transactionId}`.
    ///
    /// Apple deprecated version 1 for In-App Purchases outside the Advanced Commerce API: use
    /// ``sendConsumptionInformation(transactionId:request:productType:)`` there.
    ///
    /// - Parameters:
    ///   - transactionId: the transaction the refund request is about.
    ///   - request: the consumption information (the customer must have consented).
    /// - Throws: ``AppStoreServerAPIError``.
    public func sendConsumptionData(transactionId: String, request: ConsumptionRequestV1) async throws(AppStoreServerAPIError) {
        let path: [APIRequest.PathSegment] = [.literal("inApps"), .literal("v1"), .literal("transactions"), .literal("consumption"),
                                              .parameter(name: "transactionId", value: transactionId)]
        _ = try await send(try APIRequest("PUT", path, body: try encode(request, for: "PUT /inApps/v1/transactions/consumption")))
    }
}
