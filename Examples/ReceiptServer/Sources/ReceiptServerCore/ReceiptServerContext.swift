import AppStoreVerification
import Foundation

/// What every route shares: the configuration, the verifier and the store.
struct ReceiptServerContext: Sendable {
    let configuration: ServerConfiguration
    let verifier: SignedDataVerifier
    let store: ReceiptStore
    let engineConfiguration: EntitlementEngine.Configuration

    /// Verifies a transaction JWS from a request: 400 when it does not decode, 422 when it does not
    /// verify.
    func verifiedTransaction(_ jws: String) throws(APIError) -> Transaction {
        let result: VerificationResult<Transaction>
        do {
            result = try verifier.verifyTransaction(jws)
        } catch {
            throw APIError(.badRequest, code: error.code.rawValue, "signedTransaction is not a transaction JWS: \(error.message) Nothing was stored.")
        }
        switch result {
        case .verified(let transaction):
            return transaction
        case .unverified(_, let error):
            throw APIError(.unprocessableContent, code: "unverified", "The transaction does not verify: \(error). Nothing was stored.")
        }
    }

    /// Verifies renewal info from a request: 400 when it does not decode, 422 when it does not verify.
    func verifiedRenewalInfo(_ jws: String) throws(APIError) -> RenewalInfo {
        let result: VerificationResult<RenewalInfo>
        do {
            result = try verifier.verifyRenewalInfo(jws)
        } catch {
            throw APIError(.badRequest, code: error.code.rawValue, "signedRenewalInfo is not a renewal-info JWS: \(error.message) Nothing was stored.")
        }
        switch result {
        case .verified(let info):
            return info
        case .unverified(_, let error):
            throw APIError(.unprocessableContent, code: "unverified", "The renewal info does not verify: \(error). Nothing was stored.")
        }
    }

    /// Verifies a notification request body: 400 when it does not decode, 422 when it does not verify.
    func verifiedNotification(body: Data) throws(APIError) -> ResponseBodyV2DecodedPayload {
        let result: VerificationResult<ResponseBodyV2DecodedPayload>
        do {
            result = try verifier.verifyNotification(body: body)
        } catch {
            throw APIError(.badRequest, code: error.code.rawValue, "\(error.message) Nothing was stored.")
        }
        switch result {
        case .verified(let notification):
            return notification
        case .unverified(_, let error):
            throw APIError(.unprocessableContent, code: "unverified", "The notification does not verify: \(error). Nothing was stored.")
        }
    }

    /// The customer's entitlements at `instant`, computed by the engine from every stored JWS of
    /// their purchases, each verified again (stored text is evidence, not trust).
    func entitlements(of customer: String, at instant: Date) async throws(APIError) -> EntitlementsAnswer {
        let rows: [StoredSignedData]
        do {
            rows = try await store.signedData(forCustomer: customer)
        } catch {
            throw APIError.storageUnavailable(error)
        }
        var engine = EntitlementEngine(configuration: engineConfiguration)
        var rejected: [RejectionJSON] = []
        for row in rows {
            let name = "\(row.kind.rawValue) \(row.transactionId ?? row.notificationUUID ?? row.originalTransactionId ?? "")"
            do {
                let report = try Self.ingest(row, into: &engine, verifier: verifier)
                rejected += report.rejections.map { RejectionJSON(item: "\(name): \($0.item)", code: $0.code, message: $0.message) }
            } catch {
                rejected.append(RejectionJSON(item: name, code: error.code.rawValue, message: error.message))
            }
        }
        return EntitlementsAnswer(
            appAccountToken: customer, at: UnixMilliseconds.of(instant),
            entitlements: engine.currentEntitlements(at: instant).map(EntitlementJSON.init),
            statuses: engine.statuses(at: instant).map(EntitlementJSON.init),
            rejected: rejected, stored: nil)
    }

    /// Verifies one stored JWS and feeds it to `engine`. Synchronous on purpose: this server runs
    /// without online revocation checks, and in an `async` context Swift would pick the verifier's
    /// online (`async`) overloads.
    private static func ingest(_ row: StoredSignedData, into engine: inout EntitlementEngine, verifier: SignedDataVerifier) throws(SignedDataDecodingError) -> IngestReport {
        switch row.kind {
        case .transaction: engine.ingest(try verifier.verifyTransaction(row.jws))
        case .renewalInfo: engine.ingest(try verifier.verifyRenewalInfo(row.jws))
        case .notification: engine.ingest(try verifier.verifyNotification(row.jws))
        }
    }
}
