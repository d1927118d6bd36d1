import AppStoreVerification

extension AppStoreServerAPIClient {
    /// Sends one Advanced Commerce API request, `POST /advancedCommerce/v1/{segments}/{transactionId}`,
    /// after checking `request` against Apple's rules, and decodes Apple's answer as `Response`.
    ///
    /// - Returns: the decoded response and the request, for messages.
    /// - Throws: ``AppStoreServerAPIError``: `invalidRequest` (nothing sent) when `request` breaks a
    ///   rule or `transactionId` is empty.
    func advancedCommerce<Response: Decodable & Sendable>(_ segments: [String], transactionId: String, request: some AdvancedCommerceAPIRequest,
                                                          answer: Response.Type) async throws(AppStoreServerAPIError) -> (Response, APIRequest) {
        let summary = "POST /" + (["advancedCommerce", "v1"] + segments).joined(separator: "/")
        do {
            try request.validate()
        } catch {
            throw AppStoreServerAPIError(.invalidRequest, "\(summary): the request breaks Apple's rules: \(error.message)")
        }
        let body = try encode(request, for: summary)
        let call = try APIRequest("POST", (["advancedCommerce", "v1"] + segments).map { .literal($0) } + [.parameter(name: "transactionId", value: transactionId)],
                                  body: body)
        return (try decode(Response.self, from: try await send(call), of: call), call)
    }

    /// Verifies the signed data of an Advanced Commerce API response.
    func verifyAdvancedCommerce(signedTransactionInfo: String, signedRenewalInfo: String?,
                                of call: APIRequest) async throws(AppStoreServerAPIError) -> AdvancedCommerceVerifiedResponse {
        let transaction = try await verify(signedTransactionInfo, as: Transaction.self, at: "signedTransactionInfo", of: call)
        var renewalInfo: VerificationResult<RenewalInfo>?
        if let signedRenewalInfo {
            renewalInfo = try await verify(signedRenewalInfo, as: RenewalInfo.self, at: "signedRenewalInfo", of: call)
        }
        return AdvancedCommerceVerifiedResponse(transaction: transaction, renewalInfo: renewalInfo)
    }
}
