import AppStoreVerification

extension AppStoreServerAPIClient {
    /// A customer's app transaction: Get App Transaction Info,
    /// `GET /inApps/v1/transactions/appTransactions/{transactionId}`.
    ///
    /// - Parameter transactionId: any transaction ID, original transaction ID or app transaction ID of the customer.
    /// - Returns: Apple's `signedAppTransactionInfo`, verified.
    /// - Throws: ``AppStoreServerAPIError``; `malformedResponse` when the answer has no signed app transaction.
    public func getAppTransactionInfo(transactionId: String) async throws(AppStoreServerAPIError) -> VerificationResult<AppTransaction> {
        let call = try APIRequest("GET", [.literal("inApps"), .literal("v1"), .literal("transactions"), .literal("appTransactions"),
                                          .parameter(name: "transactionId", value: transactionId)])
        let body = try decode(AppTransactionBody.self, from: try await send(call), of: call)
        guard let jws = body.signedAppTransactionInfo else {
            throw AppStoreServerAPIError(.malformedResponse, "\(call.summary): the response has no signedAppTransactionInfo")
        }
        return try await verify(jws, as: AppTransaction.self, at: "signedAppTransactionInfo", of: call)
    }

    /// Apple's `AppTransactionInfoResponse`.
    private struct AppTransactionBody: Decodable, Sendable {
        let signedAppTransactionInfo: String?
    }
}
