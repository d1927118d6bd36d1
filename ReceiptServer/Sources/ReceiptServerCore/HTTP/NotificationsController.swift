import AppStoreVerification
import Foundation
import Hummingbird

/// `POST /notifications`: App Store Server Notifications V2, the body Apple POSTs:
/// `{"signedPayload": "<JWS>"}`.
///
/// - 200 `{"stored": true|false, "notificationUUID": ..., "notificationType": ...}` once the
///   notification is in the database (`stored` false: Apple re-sent one already stored); to your
///   backend (``Caller/backend``) also `appAccountToken`, the customer its purchase belongs to. Apple,
///   like anyone else, is told only about what it posted.
/// - 400 when the body is not such JSON or the JWS does not decode; 413 when it is too large;
///   422 when the notification, or the transaction or renewal info inside it, does not verify.
///   Nothing is stored for any of these.
/// - 503 (with `Retry-After`) when the database fails: nothing is stored and Apple retries.
///
/// The notification counts for the customer its purchase (`originalTransactionId`) belongs to: the
/// `appAccountToken` inside its transaction or renewal info links the purchase when it is not linked
/// yet; without one the notification waits until the app sends a transaction of that purchase.
struct NotificationsController: Sendable {
    let server: ReceiptServerContext

    /// Adds `POST /notifications` (open: Apple's bodies are signed, and anyone but the backend is
    /// told only about what it posted).
    func addRoutes(to router: some RouterMethods<ReceiptRequestContext>) {
        router.post("notifications", use: handle)
    }

    @Sendable func handle(_ request: Request, context: ReceiptRequestContext) async throws -> Response {
        let body = try await request.decode(as: NotificationRequestBody.self, context: context)
        let accepted = try server.check.notification(body.signedPayload)
        let notification = accepted.notification
        let row = accepted.row
        let customer = accepted.customer
        let outcome: ReceiptStore.NotificationOutcome
        // A refund request's pending answer is stored in the notification's own transaction (RefundRequests/).
        let receivedAt = UnixMilliseconds.of(server.configuration.clock.now)
        let refundRequest = server.refundAnswers?.pendingRequest(for: accepted, receivedAt: receivedAt)
        do {
            let server = self.server
            outcome = try await server.metrics.timeStore("storeNotification") { () async throws(StorageError) in
                try await server.store.storeNotification(row, appAccountToken: customer, refundRequest: refundRequest, receivedAt: receivedAt)
            }
        } catch {
            throw APIError.storageUnavailable(error)
        }
        if refundRequest != nil { server.refundAnswers?.answerDue() }
        // Signed fields, yet text from outside: escaped so that none can forge a log line.
        context.logger.info("notification \(LogSafeText.escaping(notification.notificationUUID ?? "?")) \(LogSafeText.escaping(notification.notificationType?.rawValue ?? "?")): \(outcome.isNew ? "stored" : "already stored")")
        // The customer its purchase belongs to may not be in the posted data: only the backend learns it.
        return JSONBody.response(NotificationAnswer(
            stored: outcome.isNew, notificationUUID: notification.notificationUUID,
            notificationType: notification.notificationType?.rawValue,
            appAccountToken: context.caller == .backend ? outcome.appAccountToken : nil))
    }

    /// The 200 answer's body.
    struct NotificationAnswer: Encodable {
        let stored: Bool
        let notificationUUID: String?
        let notificationType: String?
        let appAccountToken: String?
    }
}
