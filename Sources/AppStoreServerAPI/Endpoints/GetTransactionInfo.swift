import AppStoreVerification

extension AppStoreServerAPIClient {
    /// One transaction: Get Transaction Info, `GET /inApps/v1/transactions/{transactionId}`.
    ///
    /// - Parameter transactionId: the transaction's ID.
    /// - Returns: Apple's `signedTransactionInfo`, verified.
    /// - Throws: ``AppStoreServerAPIError``; `malformedResponse` when the answer has no signed transaction.
    public func getTransactionInfo(transactionId: String) async throws(AppStoreServerAPIError) -> VerificationResult<Transaction> {
        let call = try APIRequest("GET", [.literal("inApps"), .literal("v1"), .literal("transactions"), .parameter(name: "transactionId", value: transactionId)])
        let body = try decode(Body.self, from: try await send(call), of: call)
        guard let jws = body.signedTransactionInfo else {
            throw AppStoreServerAPIError(.malformedResponse, "\(call.summary): the response has no signedTransactionInfo")
        }
        return try await verify(jws, as: Transaction.self, at: "signedTransactionInfo", of: call)
    }

    /// Apple's `TransactionInfoResponse`.
    private struct Body: Decodable, Sendable {
        let signedTransactionInfo: String?
    }
}
