extension AppStoreServerAPIClient {
    /// Tells the App Store your server finished processing a transaction (delivered the content):
    /// [Finish Transaction](https://developer.apple.com/documentation/appstoreserverapi/finish-transaction),
    /// `POST /inApps/v1/transactions/{transactionId}/finish`.
    ///
    /// - Parameter transactionId: the transaction to mark as finished.
    /// - Throws: ``AppStoreServerAPIError``.
    public func finishTransaction(transactionId: String) async throws(AppStoreServerAPIError) {
        let path: [APIRequest.PathSegment] = [.literal("inApps"), .literal("v1"), .literal("transactions"),
                                              .parameter(name: "transactionId", value: transactionId), .literal("finish")]
        _ = try await send(try APIRequest("POST", path))
    }
}
