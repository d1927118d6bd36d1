import AppStoreVerification

extension AppStoreServerAPIClient {
    /// The in-app purchases of an order, from the order ID on the customer's App Store receipt
    /// email: Look Up Order ID, `GET /inApps/v1/lookup/{orderId}`.
    ///
    /// - Parameter orderId: the order ID the customer gives you.
    /// - Returns: the order's status and transactions, each verified.
    /// - Throws: ``AppStoreServerAPIError``.
    public func lookUpOrderId(orderId: String) async throws(AppStoreServerAPIError) -> OrderLookupResponse {
        let call = try APIRequest("GET", [.literal("inApps"), .literal("v1"), .literal("lookup"), .parameter(name: "orderId", value: orderId)])
        let body = try decode(OrderLookupResponse.Body.self, from: try await send(call), of: call)
        return OrderLookupResponse(status: body.status, transactions: try await verifyAll(body.signedTransactions, as: Transaction.self, at: "signedTransactions", of: call))
    }
}
