/// Schema 4: the outbox of outbound events (Docs/Webhooks.md), the same on SQLite and PostgreSQL.
///
/// - `webhook_customers`: per customer, the sequence number of their last `entitlements.changed`,
///   the entitlements it announced (canonical JSON, to tell whether a change changed them) and the
///   earliest instant time alone may change them (`next_check_at`, ms; the expiry check's index).
/// - `webhook_outbox`: one row per event and endpoint, written in the transaction of the change
///   that caused it. `order_key` (the customer) orders delivery; `state` is `pending`,
///   `delivered` or `dead`; a worker leases a due row (`lease_token`, `lease_until`) while it
///   delivers it, so one process delivers it at a time and a killed one's lease runs out.
extension SchemaMigrations {
    static func schema4(_ types: Types) -> [String] {
        [
            """
            CREATE TABLE webhook_customers (
                app_account_token TEXT PRIMARY KEY,
                sequence \(types.integer) NOT NULL,
                entitlements TEXT NOT NULL,
                next_check_at \(types.integer)
            )
            """,
            "CREATE INDEX webhook_customers_due ON webhook_customers (next_check_at) WHERE next_check_at IS NOT NULL",
            """
            CREATE TABLE webhook_outbox (
                \(types.id),
                webhook_id TEXT NOT NULL,
                endpoint TEXT NOT NULL,
                event_type TEXT NOT NULL,
                order_key TEXT,
                sequence \(types.integer),
                body TEXT NOT NULL,
                created_at \(types.integer) NOT NULL,
                retry_since \(types.integer) NOT NULL,
                state TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'dead')),
                attempts \(types.integer) NOT NULL,
                next_attempt_at \(types.integer) NOT NULL,
                lease_token TEXT,
                lease_until \(types.integer),
                last_status \(types.integer),
                last_error TEXT,
                last_attempt_at \(types.integer),
                delivered_at \(types.integer),
                UNIQUE (webhook_id, endpoint)
            )
            """,
            "CREATE INDEX webhook_outbox_due ON webhook_outbox (next_attempt_at) WHERE state = 'pending'",
            "CREATE INDEX webhook_outbox_order ON webhook_outbox (order_key, endpoint, id) WHERE state = 'pending'",
            "CREATE INDEX webhook_outbox_by_customer ON webhook_outbox (order_key, id)",
        ]
    }
}
