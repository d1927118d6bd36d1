import AppStoreVerification
import Foundation
import Hummingbird

/// `POST /transactions`: the app sends a transaction it got from StoreKit 2.
///
/// Body: `{"signedTransaction": "<Transaction.jwsRepresentation>", "appAccountToken": "<UUID>",
/// "signedRenewalInfo": "<RenewalInfo.jwsRepresentation>"}`; `appAccountToken` is optional (see
/// below), and so is `signedRenewalInfo`: a subscription's current renewal info
/// (`Product.SubscriptionInfo.Status.renewalInfo`), which must belong to the same purchase.
///
/// Answer to anyone: ``PostedTransactionAnswer``, only about what was posted (`"stored"`: whether
/// this JWS was new, false for a re-send, which changes nothing). Answer to your backend
/// (``Caller/backend``, the access token): the customer's current entitlements, as
/// `GET /customers/{appAccountToken}/entitlements` gives them, plus `"stored"`.
///
/// The customer is the transaction's own `appAccountToken`. For a transaction without one (the app
/// did not set it at purchase), the body's `appAccountToken` names the customer; if neither does, the
/// purchase must already belong to a customer, else the answer is 422 `missingAppAccountToken` and
/// nothing is stored. A purchase (`originalTransactionId`) belongs to one customer for good: a
/// transaction naming another one is answered 409 `customerConflict` (naming the customer it
/// belongs to only to the backend).
struct TransactionsController: Sendable {
    let server: ReceiptServerContext

    /// Adds `POST /transactions` (open: the app's bodies are signed, and anyone but the backend is
    /// told only about what it posted).
    func addRoutes(to router: some RouterMethods<ReceiptRequestContext>) {
        router.post("transactions", use: handle)
    }

    @Sendable func handle(_ request: Request, context: ReceiptRequestContext) async throws -> Response {
        let body = try await request.decode(as: TransactionRequestBody.self, context: context)
        let claimedCustomer = try body.appAccountToken.map(CustomerKey.required)
        let jws = body.signedTransaction
        let renewalJWS = body.signedRenewalInfo
        let transaction = try server.check.transaction(jws)
        let renewal = try renewalJWS.map(server.check.renewalInfo)
        // A verified transaction always carries it (the verifier refuses one without); the guard
        // keeps the server's invariant explicit.
        let purchase = transaction.originalTransactionId
        guard !purchase.isEmpty else {
            throw APIError(.unprocessableContent, code: "missingOriginalTransactionId",
                           "The transaction verified but has no originalTransactionId, so it belongs to no purchase. Nothing was stored.")
        }
        if let renewal, renewal.originalTransactionId != purchase {
            throw APIError(.badRequest, code: "renewalInfoMismatch",
                           "signedRenewalInfo is for purchase \(renewal.originalTransactionId ?? "(none)"), the transaction for \(purchase); send the renewal info of the transaction's own subscription. Nothing was stored.")
        }
        let ownToken = transaction.appAccountTokenUUID.map { CustomerKey.canonical($0) }
        if let ownToken, let claimedCustomer, ownToken != claimedCustomer {
            throw APIError(.conflict, code: "customerConflict",
                           "The transaction's own appAccountToken is \(ownToken), but the body says \(claimedCustomer). The signed value wins; send the body without appAccountToken or with the same one. Nothing was stored.")
        }

        let row = VerifiedSignedData(
            row: StoredSignedData(
                kind: .transaction, jws: jws, originalTransactionId: purchase, transactionId: transaction.transactionId,
                productId: transaction.productId, signedDate: transaction.signedDate.map(UnixMilliseconds.of)),
            item: .transaction(.verified(transaction)))
        var renewalRows: [VerifiedSignedData] = []
        if let renewalJWS, let renewal {
            renewalRows.append(VerifiedSignedData(
                row: StoredSignedData(
                    kind: .renewalInfo, jws: renewalJWS, originalTransactionId: purchase, productId: renewal.productId,
                    signedDate: renewal.signedDate.map(UnixMilliseconds.of)),
                item: .renewalInfo(.verified(renewal))))
        }
        let outcome: ReceiptStore.TransactionOutcome
        do {
            let server = self.server
            outcome = try await server.metrics.timeStore("storeTransaction") { () async throws(StorageError) in
                try await server.store.storeTransaction(
                    row, with: renewalRows, appAccountToken: ownToken ?? claimedCustomer,
                    receivedAt: UnixMilliseconds.of(server.configuration.clock.now))
            }
        } catch {
            throw APIError.storageUnavailable(error)
        }
        switch outcome {
        case .noCustomer:
            throw APIError(.unprocessableContent, code: "missingAppAccountToken",
                           "Transaction \(transaction.transactionId) has no appAccountToken and its purchase \(purchase) belongs to no customer yet, so the server cannot tell whose it is. Send {\"signedTransaction\": ..., \"appAccountToken\": \"<the customer's UUID>\"} (and set Product.PurchaseOption.appAccountToken when purchasing). Nothing was stored.")
        case .conflict(let linkedTo):
            // Only the backend learns whose purchase it is; anyone else is told it is not theirs.
            let owner = context.caller == .backend ? "customer \(linkedTo)" : "another customer"
            throw APIError(.conflict, code: "customerConflict",
                           "Purchase \(purchase) already belongs to \(owner), not \(ownToken ?? claimedCustomer ?? "?"). Nothing was stored.")
        case .stored(let customer, let isNew):
            context.logger.debug("transaction \(LogSafeText.escaping(transaction.transactionId)): \(isNew ? "stored" : "already stored")")
            guard context.caller == .backend else {
                return JSONBody.response(PostedTransactionAnswer(
                    stored: isNew, verified: true, transactionId: transaction.transactionId, originalTransactionId: purchase))
            }
            var answer = try await server.entitlements(of: customer, at: server.configuration.clock.now)
            answer.stored = isNew
            return JSONBody.response(answer)
        }
    }
}
