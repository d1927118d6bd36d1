import AppStoreVerification
import Foundation

/// What every route shares: the configuration, the verifier, the store and the metrics.
struct ReceiptServerContext: Sendable {
    let configuration: ServerConfiguration
    let verifier: SignedDataVerifier
    let store: ReceiptStore
    let engineConfiguration: EntitlementEngine.Configuration
    /// Store latency is recorded here (`receipt_server_store_duration_seconds`).
    let metrics: ServerMetrics

    /// Verifies a transaction JWS from a request: 400 when it does not decode, 422 when it does not
    /// verify.
    func verifiedTransaction(_ jws: String) throws(APIError) -> Transaction {
        let result: VerificationResult<Transaction>
        do {
            result = try verifier.verifyTransaction(jws)
        } catch {
            throw APIError(.badRequest, code: error.code.description, "signedTransaction is not a transaction JWS: \(error.message) Nothing was stored.")
        }
        switch result {
        case .verified(let transaction):
            return transaction
        case .unverified(_, let error):
            throw APIError(.unprocessableContent, code: "unverified", "The transaction does not verify: \(error). Nothing was stored.", verificationReason: error.code)
        }
    }

    /// Verifies renewal info from a request: 400 when it does not decode, 422 when it does not verify.
    func verifiedRenewalInfo(_ jws: String) throws(APIError) -> RenewalInfo {
        let result: VerificationResult<RenewalInfo>
        do {
            result = try verifier.verifyRenewalInfo(jws)
        } catch {
            throw APIError(.badRequest, code: error.code.description, "signedRenewalInfo is not a renewal-info JWS: \(error.message) Nothing was stored.")
        }
        switch result {
        case .verified(let info):
            return info
        case .unverified(_, let error):
            throw APIError(.unprocessableContent, code: "unverified", "The renewal info does not verify: \(error). Nothing was stored.", verificationReason: error.code)
        }
    }

    /// Verifies a notification request body: 400 when it does not decode, 422 when it does not verify.
    func verifiedNotification(body: Data) throws(APIError) -> ResponseBodyV2DecodedPayload {
        let result: VerificationResult<ResponseBodyV2DecodedPayload>
        do {
            result = try verifier.verifyNotification(body: body)
        } catch {
            throw APIError(.badRequest, code: error.code.description, "\(error.message) Nothing was stored.")
        }
        switch result {
        case .verified(let notification):
            return notification
        case .unverified(_, let error):
            throw APIError(.unprocessableContent, code: "unverified", "The notification does not verify: \(error). Nothing was stored.", verificationReason: error.code)
        }
    }

    /// The customer's entitlements at `instant`, from the records stored when each JWS was verified
    /// (nothing is verified here; `ReceiptServer reverify` verifies stored data again).
    func entitlements(of customer: String, at instant: Date) async throws(APIError) -> EntitlementsAnswer {
        do {
            let store = self.store
            return try await metrics.timeStore("customerState") { () async throws(StorageError) in
                try await store.customerState(of: customer)
            }.answer(customer: customer, at: instant)
        } catch {
            throw APIError.storageUnavailable(error)
        }
    }
}
