import AppStoreVerification

extension AppStoreServerAPIClient {
    /// One page of a customer's refunded purchases: Get Refund History v2,
    /// `GET /inApps/v2/refund/lookup/{transactionId}`.
    ///
    /// - Parameters:
    ///   - transactionId: any transaction ID of the customer.
    ///   - revision: the previous page's ``RefundHistoryResponse/revision``; `nil` for the first page.
    /// - Returns: the page, each transaction verified.
    /// - Throws: ``AppStoreServerAPIError``.
    public func getRefundHistory(transactionId: String, revision: String? = nil) async throws(AppStoreServerAPIError) -> RefundHistoryResponse {
        let query = revision.map { [(name: "revision", value: $0)] } ?? []
        let call = try APIRequest("GET", [.literal("inApps"), .literal("v2"), .literal("refund"), .literal("lookup"), .parameter(name: "transactionId", value: transactionId)],
                                  query: query)
        let body = try decode(RefundHistoryResponse.Body.self, from: try await send(call), of: call)
        return RefundHistoryResponse(revision: body.revision, hasMore: body.hasMore,
                                     transactions: try await verifyAll(body.signedTransactions, as: Transaction.self, at: "signedTransactions", of: call))
    }

    /// Every refunded purchase of a customer, every page, as one sequence of verified transactions.
    ///
    /// - Parameter transactionId: any transaction ID of the customer.
    public func refundHistory(transactionId: String) -> PaginatedResults<VerificationResult<Transaction>> {
        PaginatedResults(maximumPages: options.maximumPages, deadline: options.paginationDeadline, elapsed: elapsed) { (revision) async throws(AppStoreServerAPIError) in
            let page = try await self.getRefundHistory(transactionId: transactionId, revision: revision)
            return try PaginatedResults.Page(items: page.transactions, hasMore: page.hasMore, token: page.revision, field: "revision")
        }
    }
}
