import AppStoreVerification

extension AppStoreServerAPIClient {
    /// The statuses of all of a customer's auto-renewable subscriptions: Get All Subscription
    /// Statuses, `GET /inApps/v1/subscriptions/{transactionId}`.
    ///
    /// - Parameters:
    ///   - transactionId: any transaction ID of the customer.
    ///   - status: only subscriptions in these statuses (`status` query parameters); `nil` for all.
    /// - Returns: the statuses, every transaction and renewal info verified.
    /// - Throws: ``AppStoreServerAPIError``.
    public func getAllSubscriptionStatuses(transactionId: String, status: [Status]? = nil) async throws(AppStoreServerAPIError) -> StatusResponse {
        let query = (status ?? []).map { (name: "status", value: String($0.rawValue)) }
        let call = try APIRequest("GET", [.literal("inApps"), .literal("v1"), .literal("subscriptions"), .parameter(name: "transactionId", value: transactionId)], query: query)
        let body = try decode(StatusResponse.Body.self, from: try await send(call), of: call)
        var groups: [SubscriptionGroupIdentifierItem] = []
        for (groupIndex, group) in (body.data ?? []).enumerated() {
            var items: [LastTransactionsItem] = []
            for (index, item) in (group.lastTransactions ?? []).enumerated() {
                let location = "data[\(groupIndex)].lastTransactions[\(index)]"
                var transaction: VerificationResult<Transaction>?
                if let jws = item.signedTransactionInfo {
                    transaction = try await verify(jws, as: Transaction.self, at: location + ".signedTransactionInfo", of: call)
                }
                var renewalInfo: VerificationResult<RenewalInfo>?
                if let jws = item.signedRenewalInfo {
                    renewalInfo = try await verify(jws, as: RenewalInfo.self, at: location + ".signedRenewalInfo", of: call)
                }
                items.append(LastTransactionsItem(body: item, transaction: transaction, renewalInfo: renewalInfo))
            }
            groups.append(SubscriptionGroupIdentifierItem(subscriptionGroupIdentifier: group.subscriptionGroupIdentifier, lastTransactions: items))
        }
        return StatusResponse(body: body, data: groups)
    }
}
