import Foundation
import Hummingbird

/// "Reconcile with Apple".
extension Console {
    /// `POST /console/customers/{appAccountToken}/transactions/{transactionId}/reconcile`: runs the
    /// service's reconcile route for one of the customer's transaction IDs, keeps what it did and
    /// what it stored for the customer as the session's one-time message, and redirects to the
    /// customer's page, which shows it.
    func reconcile(_ request: Request, context: some RequestContext) async throws -> Response {
        let session = try currentSession()
        try ConsoleCSRF.checkSameOrigin(request)
        var request = request
        let form = try await ConsoleForm.decode(ConsoleTokenForm.self, from: &request)
        try ConsoleCSRF.checkToken(form.csrf, expected: session.csrfToken)
        let customer = try customerParameter(context)
        guard reconciliation.isConfigured else {
            throw ConsoleError(.notImplemented, "Reconciliation is off",
                               "The server has no App Store Server API credentials (RECEIPT_SERVER_API_KEY_FILE, RECEIPT_SERVER_API_KEY_ID, RECEIPT_SERVER_API_ISSUER_ID).")
        }
        let transactionId = context.parameters.get("transactionId") ?? ""
        let store = server.store
        let before = try await reading { () async throws(StorageError) in try await store.consoleItems(ofCustomer: customer) }
        guard before.contains(where: { $0.stored.transactionId == transactionId || $0.stored.originalTransactionId == transactionId }) else {
            throw ConsoleError(.badRequest, "Not this customer's transaction",
                               "Transaction \(transactionId.prefix(64)) is not one of customer \(customer)'s stored transactions.")
        }
        let flash: ConsoleFlash
        do {
            let answer = try await reconciliation.run(context: context)
            let known = Set(before.map(\.id))
            let after = try await reading { () async throws(StorageError) in try await store.consoleItems(ofCustomer: customer) }
            let added = decoded(after.filter { !known.contains($0.id) }).map { item in
                ConsoleAddedItem(event: item.event, productId: item.productId, transactionId: item.transactionId, signed: item.signed)
            }
            flash = ConsoleFlash(customer: customer, answer: answer, added: added)
        } catch let error as APIError {
            if error.status.kind == .serverError {
                context.logger.warning("console reconciliation failed: \(error.code)")
            }
            flash = ConsoleFlash(customer: customer, failure: "\(error.message) (\(error.code))")
        }
        sessions.setFlash(flash, for: session)
        return ConsoleResponses.redirect(to: ConsolePaths.customer(customer))
    }
}
