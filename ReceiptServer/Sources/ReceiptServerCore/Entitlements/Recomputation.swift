import AppStoreVerification
import Foundation

/// Entitlements recomputed from scratch: every stored JWS of the customer verified again and
/// ingested into a new engine. The server answers from stored records instead; this is the
/// reference those answers must equal (the tests compare the two for every stored history), and
/// what `ReceiptServer reverify` does for every customer.
public enum Recomputation {
    /// The answer for `customer` at `instant` from `rows` (their stored JWS, oldest first).
    ///
    /// - Parameters:
    ///   - rows: ``ReceiptStore/signedData(forCustomer:)``.
    ///   - customer: the customer's `appAccountToken`.
    ///   - instant: when the entitlements hold.
    ///   - verifier: the verifier to check every JWS with.
    ///   - configuration: the engine's configuration (non-renewing durations).
    public static func answer(
        rows: [StoredSignedData], customer: String, at instant: Date,
        verifier: SignedDataVerifier, configuration: EntitlementEngine.Configuration
    ) -> EntitlementsAnswer {
        let (engine, rejected) = engine(rows: rows, verifier: verifier, configuration: configuration)
        return CustomerState(revision: 0, engine: engine, rejected: rejected).answer(customer: customer, at: instant)
    }

    /// The engine (and rejections) that verifying and ingesting `rows` yields.
    public static func engine(
        rows: [StoredSignedData], verifier: SignedDataVerifier, configuration: EntitlementEngine.Configuration
    ) -> (EntitlementEngine, [RejectionJSON]) {
        var engine = EntitlementEngine(configuration: configuration)
        var rejected: [RejectionJSON] = []
        for row in rows {
            let name = VerifiedRecords.name(of: row.kind, transactionId: row.transactionId, notificationUUID: row.notificationUUID, originalTransactionId: row.originalTransactionId)
            do {
                let report = try ingest(row, into: &engine, verifier: verifier)
                rejected += report.rejections.map { RejectionJSON(item: "\(name): \($0.item)", code: $0.code, message: $0.message) }
            } catch {
                rejected.append(RejectionJSON(item: name, code: error.code.rawValue, message: error.message))
            }
        }
        return (engine, rejected)
    }

    /// Synchronous on purpose: in an `async` context Swift would pick the verifier's online
    /// (`async`) overloads.
    private static func ingest(_ row: StoredSignedData, into engine: inout EntitlementEngine, verifier: SignedDataVerifier) throws(SignedDataDecodingError) -> IngestReport {
        switch row.kind {
        case .transaction: engine.ingest(try verifier.verifyTransaction(row.jws))
        case .renewalInfo: engine.ingest(try verifier.verifyRenewalInfo(row.jws))
        case .notification: engine.ingest(try verifier.verifyNotification(row.jws))
        }
    }
}
