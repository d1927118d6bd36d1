import Foundation
import PostgresNIO

/// The outbox on PostgreSQL, inside the transaction ``PostgresBackend`` opened (the change's own,
/// for the events a change makes). The same logic as ``SQLiteOutbox``. A customer's events are
/// written while their `customers` row is locked (the change raised their revision, or the expiry
/// check locks it), so their sequence numbers and outbox IDs grow together in any process.
extension PostgresWrites {
    func webhookState(of customer: String) async throws -> WebhookCustomerState? {
        let rows = try await connection.query(
            "SELECT sequence, entitlements FROM webhook_customers WHERE app_account_token = \(customer) FOR UPDATE", logger: logger)
        for try await (sequence, entitlements) in rows.decode((Int64, String).self) {
            return WebhookCustomerState(sequence: sequence, entitlements: entitlements)
        }
        return nil
    }

    /// Writes `entitlements.changed` for `customer` when their entitlements differ from the last
    /// announced, and their next expiry check. Returns whether it wrote an event.
    @discardableResult
    func recordEntitlementsChange(of customer: String, cause: WebhookCause, outbox: WebhookOutbox) async throws -> Bool {
        let previous = try await webhookState(of: customer)
        let records = try await all(PostgresStatements.Records(customer: customer))
        let change = try outbox.entitlementsChange(customer: customer, records: records, previous: previous, cause: cause)
        _ = try await connection.query("""
            INSERT INTO webhook_customers (app_account_token, sequence, entitlements, next_check_at)
            VALUES (\(customer), \(change.state.sequence), \(change.state.entitlements), \(change.nextCheck))
            ON CONFLICT (app_account_token) DO UPDATE SET sequence = excluded.sequence, entitlements = excluded.entitlements,
                                                          next_check_at = excluded.next_check_at
            """, logger: logger)
        guard let event = change.event else { return false }
        try await insertOutbox(event, endpoints: outbox.endpoints)
        return true
    }

    @discardableResult
    func recordNotificationReceived(_ row: SignedDataRow, customer: String?, outbox: WebhookOutbox) async throws -> Bool {
        guard let event = try outbox.notificationReceived(row, customer: customer) else { return false }
        try await insertOutbox(event, endpoints: outbox.endpoints)
        return true
    }

    func insertOutbox(_ event: OutboxEvent, endpoints: [String]) async throws {
        let now = UnixMilliseconds.of(Date())
        for endpoint in endpoints {
            _ = try await connection.query("""
                INSERT INTO webhook_outbox (webhook_id, endpoint, event_type, order_key, sequence, body, created_at, retry_since, state, attempts, next_attempt_at)
                VALUES (\(event.webhookId), \(endpoint), \(event.type), \(event.orderKey), \(event.sequence), \(event.body), \(now), \(now), 'pending', 0, \(now))
                """, logger: logger)
        }
    }

    /// Leases one due row; `FOR UPDATE SKIP LOCKED` keeps two processes claiming at once from
    /// taking the same one, and the lease keeps the others off it until it runs out.
    func claimWebhook(endpoints: [String], now: Int64, leaseUntil: Int64, token: String) async throws -> ClaimedDelivery? {
        let rows = try await connection.query("""
            UPDATE webhook_outbox SET lease_token = \(token), lease_until = \(leaseUntil)
            WHERE id = (
                SELECT o.id FROM webhook_outbox o
                WHERE o.state = 'pending' AND o.next_attempt_at <= \(now) AND (o.lease_until IS NULL OR o.lease_until < \(now))
                  AND o.endpoint = ANY(\(endpoints))
                  AND (o.order_key IS NULL OR NOT EXISTS (
                      SELECT 1 FROM webhook_outbox p
                      WHERE p.state = 'pending' AND p.order_key = o.order_key AND p.endpoint = o.endpoint AND p.id < o.id))
                ORDER BY o.id LIMIT 1
                FOR UPDATE SKIP LOCKED)
            RETURNING id, webhook_id, endpoint, body, attempts, retry_since, created_at
            """, logger: logger)
        for try await (id, webhookId, endpoint, body, attempts, retrySince, createdAt) in rows.decode((Int64, String, String, String, Int64, Int64, Int64).self) {
            return ClaimedDelivery(id: id, webhookId: webhookId, endpoint: endpoint, body: body, attempts: attempts, retrySince: retrySince,
                                   token: token, createdAt: createdAt)
        }
        return nil
    }

    func finishWebhook(_ claimed: ClaimedDelivery, outcome: DeliveryOutcome, now: Int64) async throws {
        switch outcome {
        case .delivered(let status):
            _ = try await connection.query("""
                UPDATE webhook_outbox SET state = 'delivered', attempts = attempts + 1, last_status = \(Int64(status)), last_error = NULL,
                                          last_attempt_at = \(now), delivered_at = \(now), lease_token = NULL, lease_until = NULL
                WHERE id = \(claimed.id) AND lease_token = \(claimed.token)
                """, logger: logger)
        case .failed(let status, let error, let next):
            let state = next == nil ? "dead" : "pending"
            let lastError = String(error.prefix(500))
            _ = try await connection.query("""
                UPDATE webhook_outbox SET state = \(state), attempts = attempts + 1, last_status = \(status.map(Int64.init)), last_error = \(lastError),
                                          last_attempt_at = \(now), next_attempt_at = \(next ?? now), lease_token = NULL, lease_until = NULL
                WHERE id = \(claimed.id) AND lease_token = \(claimed.token)
                """, logger: logger)
        }
    }
}

/// The outbox operations on PostgreSQL, each on a pool connection.
extension PostgresBackend: WebhookOutboxStorage {
    func claimWebhook(endpoints: [String], now: Int64, leaseUntil: Int64, token: String) async throws(StorageError) -> ClaimedDelivery? {
        try await write("leasing an outbound event", { writes in
            try await writes.claimWebhook(endpoints: endpoints, now: now, leaseUntil: leaseUntil, token: token)
        }, afterCommit: { _ in })
    }

    func finishWebhook(_ claimed: ClaimedDelivery, outcome: DeliveryOutcome, now: Int64) async throws(StorageError) {
        try await write("recording an outbound event's delivery attempt", { writes in
            try await writes.finishWebhook(claimed, outcome: outcome, now: now)
        }, afterCommit: { _ in })
    }

    func dueWebhookCustomers(now: Int64, limit: Int) async throws(StorageError) -> [String] {
        try await withLeasedConnection("finding customers whose entitlements may have expired") { reads in
            var customers: [String] = []
            let rows = try await reads.connection.query("""
                SELECT app_account_token FROM webhook_customers WHERE next_check_at IS NOT NULL AND next_check_at <= \(now)
                ORDER BY next_check_at LIMIT \(Int64(limit))
                """, logger: reads.logger)
            for try await customer in rows.decode(String.self) { customers.append(customer) }
            return customers
        }
    }

    func recheckWebhookCustomer(_ customer: String, outbox: WebhookOutbox) async throws(StorageError) {
        let wrote = try await write("checking a customer's entitlements for an expiry", { writes in
            // The customer's row first, as every change of theirs locks it.
            _ = try await writes.connection.query("SELECT revision FROM customers WHERE app_account_token = \(customer) FOR UPDATE", logger: writes.logger)
            return try await writes.recordEntitlementsChange(of: customer, cause: .time, outbox: outbox)
        }, afterCommit: { _ in })
        if wrote { outbox.signal.changed() }
    }

    func webhookEndpointHealth() async throws(StorageError) -> [WebhookEndpointHealth] {
        try await withLeasedConnection("reading the outbound events' endpoints") { reads in
            var health: [WebhookEndpointHealth] = []
            let rows = try await reads.connection.query(PostgresQuery(unsafeSQL: WebhookQueries.endpointHealth), logger: reads.logger)
            for try await (endpoint, pending, dead, failingSince, lastError) in rows.decode((String, Int64?, Int64?, Int64?, String?).self) {
                health.append(WebhookEndpointHealth(endpoint: endpoint, pending: pending ?? 0, dead: dead ?? 0, failingSince: failingSince, lastError: lastError))
            }
            return health
        }
    }

    func webhookEvents(ofCustomer customer: String, limit: Int) async throws(StorageError) -> [WebhookEventRow] {
        try await withLeasedConnection("reading a customer's outbound events") { reads in
            var events: [WebhookEventRow] = []
            var bindings = PostgresBindings()
            bindings.append(customer)
            bindings.append(Int64(limit))
            let rows = try await reads.connection.query(
                PostgresQuery(unsafeSQL: WebhookQueries.eventsOfCustomer(placeholder: "$1", limit: "$2"), binds: bindings), logger: reads.logger)
            for try await row in rows {
                let columns = row.makeRandomAccess()
                events.append(WebhookEventRow(
                    id: try columns[0].decode(Int64.self), webhookId: try columns[1].decode(String.self), endpoint: try columns[2].decode(String.self),
                    type: try columns[3].decode(String.self), sequence: try columns[4].decode(Int64?.self), createdAt: try columns[5].decode(Int64.self),
                    state: try columns[6].decode(String.self),
                    attempts: try columns[7].decode(Int64.self), lastStatus: try columns[8].decode(Int64?.self), lastError: try columns[9].decode(String?.self),
                    nextAttemptAt: try columns[10].decode(Int64.self), deliveredAt: try columns[11].decode(Int64?.self)))
            }
            return events
        }
    }

    func redeliverWebhook(id: Int64, customer: String, now: Int64) async throws(StorageError) -> Bool {
        try await write("redelivering an outbound event", { writes in
            var bindings = PostgresBindings()
            bindings.append(id)
            bindings.append(customer)
            bindings.append(now)
            let rows = try await writes.connection.query(
                PostgresQuery(unsafeSQL: WebhookQueries.redeliver(id: "$1", customer: "$2", now: "$3") + " RETURNING id", binds: bindings), logger: writes.logger)
            for try await _ in rows.decode(Int64.self) { return true }
            return false
        }, afterCommit: { _ in })
    }
}
