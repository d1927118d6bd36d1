extension AppStoreServerAPIClient {
    /// Requests a refund of items of an Advanced Commerce one-time charge or subscription
    /// transaction.
    /// [Request Transaction Refund](https://developer.apple.com/documentation/advancedcommerceapi/request-transaction-refund),
    /// `POST /advancedCommerce/v1/transaction/requestRefund/{transactionId}`.
    ///
    /// A retry after a 5xx or a timeout is safe: Apple recognises the request by its
    /// `requestInfo.requestReferenceId`.
    ///
    /// - Parameters:
    ///   - transactionId: the transaction ID of the transaction to refund.
    ///   - request: the items to refund, each with its reason, type and amount.
    /// - Returns: the transaction and, for a subscription, its renewal info, verified.
    /// - Throws: ``AppStoreServerAPIError``; `invalidRequest` (nothing sent) when `request` breaks
    ///   one of Apple's rules (``AdvancedCommerceRequestRefundRequest/validate()``).
    public func requestTransactionRefund(transactionId: String, request: AdvancedCommerceRequestRefundRequest) async throws(AppStoreServerAPIError) -> AdvancedCommerceVerifiedResponse {
        let (body, call) = try await advancedCommerce(["transaction", "requestRefund"], transactionId: transactionId, request: request, answer: AdvancedCommerceRequestRefundResponse.self)
        return try await verifyAdvancedCommerce(signedTransactionInfo: body.signedTransactionInfo, signedRenewalInfo: body.signedRenewalInfo, of: call)
    }
}
