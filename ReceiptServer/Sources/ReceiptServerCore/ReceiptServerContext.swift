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
    /// Answering refund requests, when turned on (API credentials and a ``RefundAnswerConfiguration``).
    var refundAnswers: RefundAnswers? = nil

    /// Accepts or refuses signed data, recording each verification's outcome in the metrics.
    var check: SignedDataCheck { SignedDataCheck(verifier: verifier, metrics: metrics) }

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
