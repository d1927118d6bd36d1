/// The refund-request tables of schema 5 (`consumption_consents`, `consumption_facts`,
/// `refund_requests`) on one database; ``SQLiteBackend`` and ``PostgresBackend`` implement it
/// (`SQLiteRefundRequests.swift`, `PostgresRefundRequests.swift`). The pending answer itself is
/// inserted by the notification's own write transaction.
protocol RefundRequestBackend {
    /// Stores the customer's consent to share consumption data (replacing what was stored).
    func saveConsent(customer: String, consented: Bool, at instant: Int64) async throws(StorageError)

    /// Stores the backend's facts about one transaction (replacing what was stored).
    func saveConsumptionFacts(_ facts: ConsumptionFacts) async throws(StorageError)

    /// Leases up to `limit` pending requests due at `now` (whose lease, if any, ended) until
    /// `leaseUntil`, oldest due first; on PostgreSQL rows another process is leasing are skipped
    /// (`FOR UPDATE SKIP LOCKED`), so each is leased by one process.
    func leaseDueRefundRequests(now: Int64, leaseUntil: Int64, limit: Int) async throws(StorageError) -> [LeasedRefundRequest]

    /// The consent, the facts and whether the app sent the transaction, for one leased request.
    func refundAnswerInputs(for request: LeasedRefundRequest) async throws(StorageError) -> RefundAnswerInputs

    /// Records how a pending request ended (a request no longer pending is left as it is).
    func finishRefundRequest(id: Int64, _ end: RefundRequestEnd, at instant: Int64) async throws(StorageError)

    /// Records a failed attempt and when to try again (the lease ends).
    func retryRefundRequest(id: Int64, attempts: Int64, nextAttemptAt: Int64, appleAnswer: String) async throws(StorageError)

    /// Ends this process's lease of a request it did not finish (shutdown).
    func releaseRefundRequest(id: Int64) async throws(StorageError)

    /// When the next pending request is due (its attempt time, or its lease's end), if any.
    func nextRefundRequestDue() async throws(StorageError) -> Int64?

    /// The customer's consent, the facts of their transactions and their refund requests, newest first.
    func refundConsoleData(customer: String) async throws(StorageError) -> RefundConsoleData
}

extension SchemaMigrations {
    /// Schema 5: the customer's consent, the backend's facts per transaction, and the refund
    /// requests to answer (one per `CONSUMPTION_REQUEST` notification), with their lease and result.
    static func schema5(_ types: Types) -> [String] {
        [
            """
            CREATE TABLE consumption_consents (
                app_account_token TEXT PRIMARY KEY, consented \(types.integer) NOT NULL, updated_at \(types.integer) NOT NULL)
            """,
            """
            CREATE TABLE consumption_facts (
                transaction_id TEXT PRIMARY KEY, delivery_status TEXT, consumption_percentage \(types.integer),
                sample_content_provided \(types.integer), refund_preference TEXT, updated_at \(types.integer) NOT NULL)
            """,
            """
            CREATE TABLE refund_requests (
                \(types.id),
                notification_uuid TEXT NOT NULL,
                transaction_id TEXT NOT NULL,
                original_transaction_id TEXT,
                product_type TEXT,
                app_account_token TEXT,
                signed_date \(types.integer) NOT NULL,
                received_at \(types.integer) NOT NULL,
                state TEXT NOT NULL CHECK (state IN ('pending', 'answered', 'skipped', 'failed', 'missed')),
                next_attempt_at \(types.integer) NOT NULL,
                lease_until \(types.integer) NOT NULL,
                attempts \(types.integer) NOT NULL,
                sent_body TEXT,
                sent_at \(types.integer),
                apple_answer TEXT,
                reason TEXT,
                finished_at \(types.integer)
            )
            """,
            "CREATE UNIQUE INDEX refund_requests_by_notification ON refund_requests (notification_uuid)",
            "CREATE INDEX refund_requests_due ON refund_requests (next_attempt_at) WHERE state = 'pending'",
            "CREATE INDEX refund_requests_by_purchase ON refund_requests (original_transaction_id)",
            "CREATE INDEX signed_data_by_transaction ON signed_data (transaction_id) WHERE transaction_id IS NOT NULL",
        ]
    }

    /// Inserts a pending refund request unless one for its notification exists (the columns and the
    /// placeholders' order: ``RefundRequestRow``'s fields, then `next_attempt_at`).
    static let insertRefundRequest = """
        INSERT INTO refund_requests (notification_uuid, transaction_id, original_transaction_id, product_type, app_account_token,
                                     signed_date, received_at, state, next_attempt_at, lease_until, attempts)
        """

    /// The console's refund requests of a customer: through the purchase link, or the customer the
    /// notification named; with the later `REFUND` / `REFUND_DECLINED` of the transaction.
    static let consoleRefundRequests = """
        SELECT r.transaction_id, r.product_type, r.signed_date, r.state, r.reason, r.sent_body, r.sent_at, r.apple_answer, r.attempts,
               (SELECT n.notification_type FROM signed_data n WHERE n.transaction_id = r.transaction_id AND n.kind = 'notification'
                  AND n.notification_type IN ('REFUND', 'REFUND_DECLINED') ORDER BY n.signed_date DESC LIMIT 1),
               (SELECT n.signed_date FROM signed_data n WHERE n.transaction_id = r.transaction_id AND n.kind = 'notification'
                  AND n.notification_type IN ('REFUND', 'REFUND_DECLINED') ORDER BY n.signed_date DESC LIMIT 1)
        FROM refund_requests r
        WHERE r.original_transaction_id IN (SELECT original_transaction_id FROM purchases WHERE app_account_token = $1)
           OR (r.app_account_token = $1 AND NOT EXISTS (SELECT 1 FROM purchases p WHERE p.original_transaction_id = r.original_transaction_id))
        ORDER BY r.signed_date DESC, r.id DESC LIMIT 100
        """

    /// The console's facts of a customer's transactions.
    static let consoleConsumptionFacts = """
        SELECT f.transaction_id, f.delivery_status, f.consumption_percentage, f.sample_content_provided, f.refund_preference, f.updated_at
        FROM consumption_facts f
        WHERE f.transaction_id IN (SELECT d.transaction_id FROM signed_data d JOIN purchases p ON p.original_transaction_id = d.original_transaction_id
                                   WHERE p.app_account_token = $1 AND d.transaction_id IS NOT NULL)
        ORDER BY f.transaction_id LIMIT 200
        """

    /// The consent of the customer a request's purchase is linked to, else of the customer the
    /// notification named ($1: the purchase, $2: that customer).
    static let consentForRequest = """
        SELECT c.consented FROM consumption_consents c
        WHERE c.app_account_token = COALESCE((SELECT app_account_token FROM purchases WHERE original_transaction_id = $1), $2)
        """
}
