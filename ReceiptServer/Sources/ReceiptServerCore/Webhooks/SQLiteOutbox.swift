import Foundation
import GRDB

/// The outbox on SQLite: synchronous statements inside the writer's transaction (the change's own,
/// for the events a change makes). ``PostgresOutbox`` is the same on PostgreSQL.
extension Database {
    /// The customer's last announced state.
    func webhookState(of customer: String) throws -> WebhookCustomerState? {
        guard let row = try Row.fetchOne(cachedStatement(sql: "SELECT sequence, entitlements FROM webhook_customers WHERE app_account_token = ?"),
                                         arguments: [customer]),
              let sequence: Int64 = row[0], let entitlements: String = row[1] else { return nil }
        return WebhookCustomerState(sequence: sequence, entitlements: entitlements)
    }

    /// Writes `entitlements.changed` for `customer` when their entitlements differ from the last
    /// announced, and their next expiry check. Returns whether it wrote an event.
    @discardableResult
    func recordEntitlementsChange(of customer: String, cause: WebhookCause, outbox: WebhookOutbox) throws -> Bool {
        let change = try outbox.entitlementsChange(customer: customer, records: try records(of: customer), previous: try webhookState(of: customer), cause: cause)
        try cachedStatement(sql: """
            INSERT INTO webhook_customers (app_account_token, sequence, entitlements, next_check_at) VALUES (?, ?, ?, ?)
            ON CONFLICT (app_account_token) DO UPDATE SET sequence = excluded.sequence, entitlements = excluded.entitlements,
                                                          next_check_at = excluded.next_check_at
            """).execute(arguments: [customer, change.state.sequence, change.state.entitlements, change.nextCheck])
        guard let event = change.event else { return false }
        try insertOutbox(event, endpoints: outbox.endpoints)
        return true
    }

    /// Writes `notification.received` for a newly stored notification.
    @discardableResult
    func recordNotificationReceived(_ row: SignedDataRow, customer: String?, outbox: WebhookOutbox) throws -> Bool {
        guard let event = try outbox.notificationReceived(row, customer: customer) else { return false }
        try insertOutbox(event, endpoints: outbox.endpoints)
        return true
    }

    /// One outbox row per endpoint, due now.
    func insertOutbox(_ event: OutboxEvent, endpoints: [String]) throws {
        let now = UnixMilliseconds.of(Date())
        let statement = try cachedStatement(sql: """
            INSERT INTO webhook_outbox (webhook_id, endpoint, event_type, order_key, sequence, body, created_at, retry_since, state, attempts, next_attempt_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'pending', 0, ?)
            """)
        for endpoint in endpoints {
            try statement.execute(arguments: [event.webhookId, endpoint, event.type, event.orderKey, event.sequence, event.body, now, now, now])
        }
    }

    /// See ``WebhookOutboxStorage/claimWebhook(endpoints:now:leaseUntil:token:)``.
    func claimWebhook(endpoints: [String], now: Int64, leaseUntil: Int64, token: String) throws -> ClaimedDelivery? {
        guard !endpoints.isEmpty else { return nil }
        let placeholders = Array(repeating: "?", count: endpoints.count).joined(separator: ", ")
        let row = try Row.fetchOne(self, sql: """
            SELECT o.id, o.webhook_id, o.endpoint, o.body, o.attempts, o.retry_since, o.created_at FROM webhook_outbox o
            WHERE o.state = 'pending' AND o.next_attempt_at <= ? AND (o.lease_until IS NULL OR o.lease_until < ?)
              AND o.endpoint IN (\(placeholders))
              AND (o.order_key IS NULL OR NOT EXISTS (
                  SELECT 1 FROM webhook_outbox p
                  WHERE p.state = 'pending' AND p.order_key = o.order_key AND p.endpoint = o.endpoint AND p.id < o.id))
            ORDER BY o.id LIMIT 1
            """, arguments: StatementArguments([now, now] + endpoints))
        guard let row, let id: Int64 = row[0], let webhookId: String = row[1], let endpoint: String = row[2], let body: String = row[3],
              let attempts: Int64 = row[4], let retrySince: Int64 = row[5], let createdAt: Int64 = row[6] else { return nil }
        try execute(sql: "UPDATE webhook_outbox SET lease_token = ?, lease_until = ? WHERE id = ?", arguments: [token, leaseUntil, id])
        return ClaimedDelivery(id: id, webhookId: webhookId, endpoint: endpoint, body: body, attempts: attempts, retrySince: retrySince,
                               token: token, createdAt: createdAt)
    }

    /// See ``WebhookOutboxStorage/finishWebhook(_:outcome:now:)``.
    func finishWebhook(_ claimed: ClaimedDelivery, outcome: DeliveryOutcome, now: Int64) throws {
        switch outcome {
        case .delivered(let status):
            try execute(sql: """
                UPDATE webhook_outbox SET state = 'delivered', attempts = attempts + 1, last_status = ?, last_error = NULL, last_attempt_at = ?,
                                          delivered_at = ?, lease_token = NULL, lease_until = NULL
                WHERE id = ? AND lease_token = ?
                """, arguments: [status, now, now, claimed.id, claimed.token])
        case .failed(let status, let error, let next):
            try execute(sql: """
                UPDATE webhook_outbox SET state = ?, attempts = attempts + 1, last_status = ?, last_error = ?, last_attempt_at = ?,
                                          next_attempt_at = ?, lease_token = NULL, lease_until = NULL
                WHERE id = ? AND lease_token = ?
                """, arguments: [next == nil ? "dead" : "pending", status, String(error.prefix(500)), now, next ?? now, claimed.id, claimed.token])
        }
    }

    func dueWebhookCustomers(now: Int64, limit: Int) throws -> [String] {
        try String.fetchAll(self, sql: """
            SELECT app_account_token FROM webhook_customers WHERE next_check_at IS NOT NULL AND next_check_at <= ?
            ORDER BY next_check_at LIMIT ?
            """, arguments: [now, limit])
    }

    func webhookEndpointHealth() throws -> [WebhookEndpointHealth] {
        try Row.fetchAll(self, sql: WebhookQueries.endpointHealth).compactMap { row in
            guard let endpoint: String = row[0] else { return nil }
            return WebhookEndpointHealth(endpoint: endpoint, pending: row[1] ?? 0, dead: row[2] ?? 0, failingSince: row[3], lastError: row[4])
        }
    }

    func webhookEvents(ofCustomer customer: String, limit: Int) throws -> [WebhookEventRow] {
        try Row.fetchAll(self, sql: WebhookQueries.eventsOfCustomer(placeholder: "?", limit: "?"), arguments: [customer, limit]).compactMap(WebhookQueries.eventRow)
    }

    func redeliverWebhook(id: Int64, customer: String, now: Int64) throws -> Bool {
        try execute(sql: WebhookQueries.redeliver(id: "?", customer: "?", now: "?"), arguments: [now, now, id, customer])
        return changesCount > 0
    }
}

/// SQL both stores share (with their placeholders).
enum WebhookQueries {
    static let endpointHealth = """
        SELECT o.endpoint,
               SUM(CASE WHEN o.state = 'pending' THEN 1 ELSE 0 END),
               SUM(CASE WHEN o.state = 'dead' THEN 1 ELSE 0 END),
               MIN(CASE WHEN o.state = 'pending' AND o.attempts > 0 THEN o.created_at END),
               MAX(CASE WHEN o.state IN ('pending', 'dead') THEN o.last_error END)
        FROM webhook_outbox o WHERE o.state <> 'delivered' GROUP BY o.endpoint ORDER BY o.endpoint
        """

    static func eventsOfCustomer(placeholder: String, limit: String) -> String {
        """
        SELECT id, webhook_id, endpoint, event_type, sequence, created_at, state, attempts, last_status, last_error, next_attempt_at, delivered_at
        FROM webhook_outbox WHERE order_key = \(placeholder) ORDER BY id DESC LIMIT \(limit)
        """
    }

    static func redeliver(id: String, customer: String, now: String) -> String {
        """
        UPDATE webhook_outbox SET state = 'pending', next_attempt_at = \(now), retry_since = \(now), lease_token = NULL, lease_until = NULL
        WHERE id = \(id) AND order_key = \(customer) AND state = 'dead'
        """
    }

    static func eventRow(_ row: Row) -> WebhookEventRow? {
        guard let id: Int64 = row[0], let webhookId: String = row[1], let endpoint: String = row[2], let type: String = row[3],
              let createdAt: Int64 = row[5], let state: String = row[6], let attempts: Int64 = row[7], let next: Int64 = row[10] else { return nil }
        return WebhookEventRow(id: id, webhookId: webhookId, endpoint: endpoint, type: type, sequence: row[4], createdAt: createdAt, state: state,
                               attempts: attempts, lastStatus: row[8], lastError: row[9], nextAttemptAt: next, deliveredAt: row[11])
    }
}

/// The outbox operations on SQLite, through the writer (writes) and the readers (reads).
extension SQLiteBackend: WebhookOutboxStorage {
    func claimWebhook(endpoints: [String], now: Int64, leaseUntil: Int64, token: String) async throws(StorageError) -> ClaimedDelivery? {
        try await write("leasing an outbound event", { db in
            try db.claimWebhook(endpoints: endpoints, now: now, leaseUntil: leaseUntil, token: token)
        }, afterCommit: { _ in })
    }

    func finishWebhook(_ claimed: ClaimedDelivery, outcome: DeliveryOutcome, now: Int64) async throws(StorageError) {
        try await write("recording an outbound event's delivery attempt", { db in
            try db.finishWebhook(claimed, outcome: outcome, now: now)
        }, afterCommit: { _ in })
    }

    func dueWebhookCustomers(now: Int64, limit: Int) async throws(StorageError) -> [String] {
        try await read("finding customers whose entitlements may have expired") { db in try db.dueWebhookCustomers(now: now, limit: limit) }
    }

    func recheckWebhookCustomer(_ customer: String, outbox: WebhookOutbox) async throws(StorageError) {
        let wrote = try await write("checking a customer's entitlements for an expiry", { db in
            try db.recordEntitlementsChange(of: customer, cause: .time, outbox: outbox)
        }, afterCommit: { _ in })
        if wrote { outbox.signal.changed() }
    }

    func webhookEndpointHealth() async throws(StorageError) -> [WebhookEndpointHealth] {
        try await read("reading the outbound events' endpoints") { db in try db.webhookEndpointHealth() }
    }

    func webhookEvents(ofCustomer customer: String, limit: Int) async throws(StorageError) -> [WebhookEventRow] {
        try await read("reading a customer's outbound events") { db in try db.webhookEvents(ofCustomer: customer, limit: limit) }
    }

    func redeliverWebhook(id: Int64, customer: String, now: Int64) async throws(StorageError) -> Bool {
        try await write("redelivering an outbound event", { db in
            try db.redeliverWebhook(id: id, customer: customer, now: now)
        }, afterCommit: { _ in })
    }
}
