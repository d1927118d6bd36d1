import Foundation
import Synchronization

/// One outbox row a worker leased for delivery.
struct ClaimedDelivery: Sendable {
    let id: Int64
    let webhookId: String
    let endpoint: String
    let body: String
    /// Failed attempts before this one.
    let attempts: Int64
    /// Where the retry period started (creation, or a redelivery), ms.
    let retrySince: Int64
    /// The lease's token: only its holder records the result.
    let token: String
    let createdAt: Int64
}

/// How an attempt ended.
enum DeliveryOutcome: Sendable {
    /// A 2xx answer.
    case delivered(status: Int)
    /// A non-2xx answer (`status`) or no answer (`error`); retried at `nextAttemptAt` (ms), or
    /// dead-lettered when `nil`.
    case failed(status: Int?, error: String, nextAttemptAt: Int64?)
}

/// One event of a customer, for the console.
public struct WebhookEventRow: Sendable, Equatable {
    public let id: Int64
    public let webhookId: String
    public let endpoint: String
    public let type: String
    public let sequence: Int64?
    public let createdAt: Int64
    /// `pending`, `delivered` or `dead`.
    public let state: String
    public let attempts: Int64
    public let lastStatus: Int64?
    public let lastError: String?
    public let nextAttemptAt: Int64
    public let deliveredAt: Int64?
}

/// How one endpoint is doing, for the console and metrics.
public struct WebhookEndpointHealth: Sendable, Equatable {
    public let endpoint: String
    public let pending: Int64
    public let dead: Int64
    /// The creation (ms) of its oldest pending event that has failed at least once, if any: the
    /// endpoint has been failing since about then.
    public let failingSince: Int64?
    /// The last error of that event.
    public let lastError: String?
}

/// The outbox operations both stores offer (``SQLiteBackend``, ``PostgresBackend``), for the
/// delivery service, the expiry check and the console.
protocol WebhookOutboxStorage: Sendable {
    /// Leases the oldest due event whose customer has no earlier pending event for the same
    /// endpoint, or returns `nil`.
    func claimWebhook(endpoints: [String], now: Int64, leaseUntil: Int64, token: String) async throws(StorageError) -> ClaimedDelivery?
    /// Records an attempt's outcome (only while the lease is still `claimed.token`'s).
    func finishWebhook(_ claimed: ClaimedDelivery, outcome: DeliveryOutcome, now: Int64) async throws(StorageError)
    /// Customers whose entitlements time alone may have changed by `now`.
    func dueWebhookCustomers(now: Int64, limit: Int) async throws(StorageError) -> [String]
    /// Computes the customer's entitlements again and writes an event when they changed.
    func recheckWebhookCustomer(_ customer: String, outbox: WebhookOutbox) async throws(StorageError)
    /// Every endpoint's pending and dead-lettered counts and whether it is failing.
    func webhookEndpointHealth() async throws(StorageError) -> [WebhookEndpointHealth]
    /// The customer's latest events (at most `limit`), newest first.
    func webhookEvents(ofCustomer customer: String, limit: Int) async throws(StorageError) -> [WebhookEventRow]
    /// Makes a dead-lettered event of the customer pending again, due now; false when there is none.
    func redeliverWebhook(id: Int64, customer: String, now: Int64) async throws(StorageError) -> Bool
}
