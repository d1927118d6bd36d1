import AppStoreVerification
import Foundation

/// A `CONSUMPTION_REQUEST` to answer, stored in the same database transaction as the notification
/// (`refund_requests`, schema 5), so that a notification the server acknowledged is answered even if
/// the process dies right after. Unique by `notificationUUID`: the same notification received twice
/// (Apple retries, the backfill) is answered once.
struct RefundRequestRow: Sendable {
    let notificationUUID: String
    let transactionId: String
    let originalTransactionId: String?
    /// The transaction's `type` (`Consumable`, `Auto-Renewable Subscription`, ...).
    let productType: String?
    /// The `appAccountToken` the notification's own transaction names, if any.
    let customer: String?
    /// The notification's `signedDate` (milliseconds since 1970): Apple's 12 hours start there.
    let signedDate: Int64
    let receivedAt: Int64

    /// The row for `accepted` when it is a `CONSUMPTION_REQUEST` about a transaction, else `nil`.
    static func pending(for accepted: AcceptedNotification, receivedAt: Int64) -> RefundRequestRow? {
        let notification = accepted.notification
        guard notification.notificationType == .consumptionRequest, let uuid = notification.notificationUUID, !uuid.isEmpty,
              let transaction = accepted.transaction, !transaction.transactionId.isEmpty else { return nil }
        return RefundRequestRow(
            notificationUUID: uuid, transactionId: transaction.transactionId,
            originalTransactionId: transaction.originalTransactionId.isEmpty ? nil : transaction.originalTransactionId,
            productType: transaction.type.rawValue.isEmpty ? nil : transaction.type.rawValue, customer: accepted.customer,
            signedDate: notification.signedDate.map(UnixMilliseconds.of) ?? receivedAt, receivedAt: receivedAt)
    }
}

/// A pending refund request one process leased to answer.
struct LeasedRefundRequest: Sendable {
    let id: Int64
    let transactionId: String
    let originalTransactionId: String?
    let productType: String?
    let customer: String?
    let signedDate: Int64
    /// Failed attempts so far.
    let attempts: Int64
}

/// What the backend told the server about one transaction (`PUT /transactions/{transactionId}/consumption`).
struct ConsumptionFacts: Sendable, Equatable, Codable {
    let transactionId: String
    /// Apple's `DeliveryStatus` (`DELIVERED`, `UNDELIVERED_QUALITY_ISSUE`, ...), if the backend said.
    let deliveryStatus: String?
    /// Milliunits consumed (0 to 100000), if the backend said.
    let consumptionPercentage: Int64?
    /// Whether a sample was provided, if the backend said.
    let sampleContentProvided: Bool?
    /// The outcome the backend prefers for this transaction, if any.
    let refundPreference: String?
    /// When it was stored (milliseconds since 1970).
    let updatedAt: Int64
}

/// What the sender reads to build an answer.
struct RefundAnswerInputs: Sendable {
    /// The customer's consent: `nil` when the backend never said.
    let consented: Bool?
    let facts: ConsumptionFacts?
    /// Whether the app sent the transaction to the server (it then counts as delivered unless the
    /// backend said otherwise).
    let appSentTransaction: Bool
}

/// How a refund request ended.
struct RefundRequestEnd: Sendable {
    /// `answered`, `skipped`, `failed` or `missed`.
    let state: String
    /// Why (skipped: `noConsent`, `noFacts`; failed and missed: a sentence).
    let reason: String?
    /// The JSON sent to Apple, if any.
    let sentBody: String?
    let sentAt: Int64?
    /// Apple's answer (`202`, or its status, code and message).
    let appleAnswer: String?
}

/// One refund request as the console shows it.
struct ConsoleRefundRequest: Sendable {
    let transactionId: String
    let productType: String?
    let signedDate: Int64
    /// `pending`, `answered`, `skipped`, `failed` or `missed`.
    let state: String
    let reason: String?
    let sentBody: String?
    let sentAt: Int64?
    let appleAnswer: String?
    let attempts: Int64
    /// The later `REFUND` or `REFUND_DECLINED` notification of the transaction, if one came.
    let outcome: String?
    let outcomeDate: Int64?
}

/// What the console shows of a customer's refund requests and the facts behind them.
struct RefundConsoleData: Sendable {
    /// The customer's consent (`nil`: never said) and when it was stored.
    let consent: (consented: Bool, updatedAt: Int64)?
    let facts: [ConsumptionFacts]
    let requests: [ConsoleRefundRequest]
}
