import AppStoreVerification
import Foundation
import Hummingbird

/// `POST /notifications`: App Store Server Notifications V2, the body Apple POSTs:
/// `{"signedPayload": "<JWS>"}`.
///
/// - 200 `{"stored": true|false, "notificationUUID": ..., "appAccountToken": ...}` once the
///   notification is in the database (`stored` false: Apple re-sent one already stored).
/// - 400 when the body is not such JSON or the JWS does not decode; 413 when it is too large;
///   422 when the notification, or the transaction or renewal info inside it, does not verify.
///   Nothing is stored for any of these.
/// - 503 (with `Retry-After`) when the database fails: nothing is stored and Apple retries.
///
/// The notification counts for the customer its purchase (`originalTransactionId`) belongs to: the
/// `appAccountToken` inside its transaction or renewal info links the purchase when it is not linked
/// yet; without one the notification waits until the app sends a transaction of that purchase.
struct NotificationsRoute: Sendable {
    let server: ReceiptServerContext

    func handle(_ request: Request, context: some RequestContext) async throws -> Response {
        var request = request
        let body = try await JSONBody.collect(&request, limit: server.configuration.maximumBodyBytes)
        let notification = try server.verifiedNotification(body: body)

        var transaction: Transaction?
        switch notification.transactionInfo {
        case nil: break
        case .failure(let error):
            throw APIError(.badRequest, code: error.code.description, "The notification's signedTransactionInfo does not decode: \(error.message) Nothing was stored.")
        case .success(.unverified(_, let error)):
            throw APIError(.unprocessableContent, code: "unverified", "The notification verified but its signedTransactionInfo does not: \(error). Nothing was stored.", verificationReason: error.code)
        case .success(.verified(let verified)):
            transaction = verified
        }
        var renewal: RenewalInfo?
        switch notification.renewalInfo {
        case nil: break
        case .failure(let error):
            throw APIError(.badRequest, code: error.code.description, "The notification's signedRenewalInfo does not decode: \(error.message) Nothing was stored.")
        case .success(.unverified(_, let error)):
            throw APIError(.unprocessableContent, code: "unverified", "The notification verified but its signedRenewalInfo does not: \(error). Nothing was stored.", verificationReason: error.code)
        case .success(.verified(let verified)):
            renewal = verified
        }

        guard let signedPayload = notification.jws?.jwsRepresentation else {
            throw APIError(.internalServerError, code: "internal", "The verified notification carries no JWS.")
        }
        let purchase = transaction?.originalTransactionId ?? renewal?.originalTransactionId
        let customer = (transaction?.appAccountTokenUUID ?? renewal?.appAccountTokenUUID).map { CustomerKey.canonical($0) }
        let row = VerifiedSignedData(
            row: StoredSignedData(
                kind: .notification, jws: signedPayload, originalTransactionId: purchase,
                transactionId: transaction?.transactionId, notificationUUID: notification.notificationUUID,
                notificationType: notification.notificationType?.rawValue, productId: transaction?.productId ?? renewal?.productId,
                signedDate: notification.signedDate.map(UnixMilliseconds.of)),
            item: .notification(.verified(notification)))
        let outcome: ReceiptStore.NotificationOutcome
        do {
            let server = self.server
            outcome = try await server.metrics.timeStore("storeNotification") { () async throws(StorageError) in
                try await server.store.storeNotification(row, appAccountToken: customer, receivedAt: UnixMilliseconds.of(server.configuration.now()))
            }
        } catch {
            throw APIError.storageUnavailable(error)
        }
        context.logger.info("notification \(notification.notificationUUID ?? "?") \(notification.notificationType?.rawValue ?? "?"): \(outcome.isNew ? "stored" : "already stored")")
        return JSONBody.response(NotificationAnswer(
            stored: outcome.isNew, notificationUUID: notification.notificationUUID,
            notificationType: notification.notificationType?.rawValue, appAccountToken: outcome.appAccountToken))
    }

    /// The 200 answer's body.
    struct NotificationAnswer: Encodable {
        let stored: Bool
        let notificationUUID: String?
        let notificationType: String?
        let appAccountToken: String?
    }
}
