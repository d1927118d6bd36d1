import AppStoreServerAPI
import AppStoreVerification
import Foundation
import Hummingbird

/// `POST /transactions/{transactionId}/reconcile`: asks Apple for the whole transaction history of
/// the customer who owns `transactionId` (any of their transaction or original transaction IDs;
/// App Store Server API, Get Transaction History) and stores every transaction that verifies, the
/// same way `POST /transactions` does. For when the server doubts its state: a missed
/// notification, an app that never sent a purchase.
///
/// Body (optional): `{"appAccountToken": "<UUID>"}`, the customer for transactions that carry no
/// `appAccountToken` of their own and whose purchase is not linked yet (as in `POST /transactions`).
///
/// Answer 200:
/// `{"transactionId", "received", "stored", "alreadyStored", "customers": [...],
///   "unverified": [{"transactionId", "reason"}], "unlinked": [...], "conflicts": [{"transactionId", "linkedTo"}]}`:
/// `unverified` items (a signature, chain, bundle ID or environment that does not verify) are not
/// stored; `unlinked` are verified transactions without any customer (nothing stored); `conflicts`
/// belong to a purchase linked to another customer (nothing stored).
///
/// Errors: 501 `reconcileNotConfigured` without API credentials; 404 `unknownTransaction` when Apple
/// does not know the ID; 502 `appStoreUnauthorized` when Apple refuses the key; 502
/// `appStoreUnavailable` for other API failures (what was stored before the failure stays stored);
/// 503 `storageUnavailable` for the database.
struct ReconcileController: Sendable {
    let server: ReceiptServerContext
    let metrics: ServerMetrics
    /// `nil` when the server has no App Store Server API credentials.
    let client: AppStoreServerAPIClient?

    /// Adds the route to `router`, which the caller guards (it links purchases to customers and
    /// spends the API quota: the backend only, always).
    func addRoutes(to router: some RouterMethods<ReceiptRequestContext>) {
        router.post("transactions/:transactionId/reconcile", use: handle)
    }

    /// Reconciles; the console runs it too (``ConsoleReconciliation``), with its own request.
    @Sendable func handle(_ request: Request, context: some RequestContext) async throws -> Response {
        guard let client else {
            throw APIError(.notImplemented, code: "reconcileNotConfigured",
                           "Reconciliation needs App Store Server API credentials: start the server with RECEIPT_SERVER_API_KEY_FILE, RECEIPT_SERVER_API_KEY_ID and RECEIPT_SERVER_API_ISSUER_ID (or --api-key-file, --api-key-id, --api-issuer-id).")
        }
        let transactionId = context.parameters.get("transactionId") ?? ""
        guard !transactionId.isEmpty, transactionId.count <= 64, transactionId.allSatisfy({ $0.isASCII && ($0.isNumber || $0.isLetter) }) else {
            throw APIError(.badRequest, code: "invalidTransactionId",
                           "\"\(transactionId.prefix(64))\" is not a transaction ID: use a customer's transactionId or originalTransactionId (digits).")
        }
        let claimedCustomer = try await request.decode(as: ReconcileRequestBody.self, context: context).appAccountToken.map(CustomerKey.required)

        var answer = ReconcileAnswer(transactionId: transactionId)
        var customers: Set<String> = []
        do {
            for try await item in client.transactionHistory(transactionId: transactionId) {
                answer.received += 1
                let transaction: Transaction
                do {
                    transaction = try server.check.accept(.reconciledTransaction, "a transaction from Apple", item)
                } catch {
                    if case .unverified(let claimed, let reason) = item {
                        answer.unverified.append(.init(transactionId: claimed.transactionId, reason: "\(reason)"))
                    }
                    continue
                }
                try await store(transaction, jws: item.jwsRepresentation, claimedCustomer: claimedCustomer, into: &answer, customers: &customers)
            }
        } catch let error as AppStoreServerAPIError {
            throw Self.apiError(error, transactionId: transactionId, storedBefore: answer.stored)
        }
        answer.customers = customers.sorted()
        context.logger.info("reconciled: \(answer.received) transactions from Apple, \(answer.stored) new, \(answer.unverified.count) unverified")
        return JSONBody.response(answer)
    }

    /// Stores one verified transaction as `POST /transactions` does.
    private func store(_ transaction: Transaction, jws: String, claimedCustomer: String?,
                       into answer: inout ReconcileAnswer, customers: inout Set<String>) async throws(APIError) {
        let purchase = transaction.originalTransactionId
        guard !purchase.isEmpty, !jws.isEmpty else {
            answer.unlinked.append(transaction.transactionId)
            return
        }
        let ownToken = transaction.appAccountTokenUUID.map { CustomerKey.canonical($0) }
        let row = VerifiedSignedData(
            row: StoredSignedData(
                kind: .transaction, jws: jws, originalTransactionId: purchase, transactionId: transaction.transactionId,
                productId: transaction.productId, signedDate: transaction.signedDate.map(UnixMilliseconds.of)),
            item: .transaction(.verified(transaction)))
        let outcome: ReceiptStore.TransactionOutcome
        do {
            outcome = try await metrics.timeStore("storeTransaction") { () async throws(StorageError) in
                try await server.store.storeTransaction(
                    row, appAccountToken: ownToken ?? claimedCustomer, receivedAt: UnixMilliseconds.of(server.configuration.clock.now))
            }
        } catch {
            throw APIError.storageUnavailable(error)
        }
        switch outcome {
        case .stored(let customer, let isNew):
            customers.insert(customer)
            if isNew { answer.stored += 1 } else { answer.alreadyStored += 1 }
        case .noCustomer:
            answer.unlinked.append(transaction.transactionId)
        case .conflict(let linkedTo):
            answer.conflicts.append(.init(transactionId: transaction.transactionId, linkedTo: linkedTo))
        }
    }

    /// The answer for a failed API call.
    static func apiError(_ error: AppStoreServerAPIError, transactionId: String, storedBefore: Int) -> APIError {
        let kept = storedBefore > 0 ? " The \(storedBefore) transactions stored before the failure stay stored." : ""
        if error.httpStatusCode == 404 {
            return APIError(.notFound, code: "unknownTransaction",
                            "Apple does not know transaction \(transactionId) (\(error.message)); check the ID and the environment (Sandbox or Production).")
        }
        if error.code == .unauthorized {
            return APIError(.badGateway, code: "appStoreUnauthorized",
                            "The App Store Server API refused the server's key: \(error.message.endingSentence) Check the key file, key ID and issuer ID.\(kept)")
        }
        return APIError(.badGateway, code: "appStoreUnavailable",
                        "The App Store Server API call failed: \(String(describing: error).endingSentence) Retry later.\(kept)", headers: [.retryAfter: "30"])
    }

    /// The 200 answer's body.
    struct ReconcileAnswer: Encodable {
        struct Unverified: Encodable {
            let transactionId: String
            let reason: String
        }
        struct Conflict: Encodable {
            let transactionId: String
            let linkedTo: String
        }
        let transactionId: String
        var received = 0
        var stored = 0
        var alreadyStored = 0
        var customers: [String] = []
        var unverified: [Unverified] = []
        var unlinked: [String] = []
        var conflicts: [Conflict] = []
    }
}
