import AppStoreVerification

extension AppStoreServerAPIClient {
    /// One page of a customer's transaction history: Get Transaction History v2,
    /// `GET /inApps/v2/history/{transactionId}` (or, with `version: .v1`, the version Apple
    /// deprecated, `GET /inApps/v1/history/{transactionId}`).
    ///
    /// - Parameters:
    ///   - transactionId: any transaction ID, original transaction ID or app transaction ID of the customer.
    ///   - revision: the previous page's ``HistoryResponse/revision``; `nil` for the first page.
    ///   - request: filters and order; give the same ones for every page.
    ///   - version: the endpoint's version; `.v2` (Apple's recommendation) by default.
    /// - Returns: the page, each transaction verified (an item that fails is `.unverified`).
    /// - Throws: ``AppStoreServerAPIError``.
    public func getTransactionHistory(transactionId: String, revision: String? = nil,
                                       request: TransactionHistoryRequest = TransactionHistoryRequest(),
                                       version: GetTransactionHistoryVersion = .v2) async throws(AppStoreServerAPIError) -> HistoryResponse {
        var query = request.queryItems
        if let revision { query.insert(("revision", revision), at: 0) }
        let call = try APIRequest("GET", [.literal("inApps"), .parameter(name: "version", value: version.rawValue), .literal("history"),
                                          .parameter(name: "transactionId", value: transactionId)], query: query)
        let body = try decode(HistoryResponse.Body.self, from: try await send(call), of: call)
        return HistoryResponse(body: body, transactions: try await verifyAll(body.signedTransactions, as: Transaction.self, at: "signedTransactions", of: call))
    }

    /// A customer's whole transaction history, every page, as one sequence of verified
    /// transactions: feed it to an `EntitlementEngine` as it comes.
    ///
    /// ```swift
    /// var engine = EntitlementEngine()
    /// for try await transaction in client.transactionHistory(transactionId: id) {
    ///     engine.ingest(transaction)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - transactionId: any transaction ID, original transaction ID or app transaction ID of the customer.
    ///   - request: filters and order.
    ///   - version: the endpoint's version; `.v2` (Apple's recommendation) by default.
    public func transactionHistory(transactionId: String,
                                   request: TransactionHistoryRequest = TransactionHistoryRequest(),
                                   version: GetTransactionHistoryVersion = .v2) -> PaginatedResults<VerificationResult<Transaction>> {
        PaginatedResults(maximumPages: options.maximumPages, deadline: options.paginationDeadline, elapsed: elapsed) { (revision) async throws(AppStoreServerAPIError) in
            let page = try await self.getTransactionHistory(transactionId: transactionId, revision: revision, request: request, version: version)
            return try PaginatedResults.Page(items: page.transactions, hasMore: page.hasMore, token: page.revision, field: "revision")
        }
    }
}
