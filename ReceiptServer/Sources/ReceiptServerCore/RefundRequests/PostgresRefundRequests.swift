import PostgresNIO

/// ``RefundRequestBackend`` on PostgreSQL. Several server processes share the database: a lease
/// takes due rows with `FOR UPDATE SKIP LOCKED` and marks them leased in the same statement, so a
/// row one process leased is skipped by the others until its lease ends (a process that died
/// while sending: another one sends after the lease).
extension PostgresBackend: RefundRequestBackend {
    func saveConsent(customer: String, consented: Bool, at instant: Int64) async throws(StorageError) {
        let value: Int64 = consented ? 1 : 0
        try await withLeasedConnection("storing a customer's consumption consent") { writes in
            _ = try await writes.connection.query("""
                INSERT INTO consumption_consents (app_account_token, consented, updated_at) VALUES (\(customer), \(value), \(instant))
                ON CONFLICT (app_account_token) DO UPDATE SET consented = excluded.consented, updated_at = excluded.updated_at
                """, logger: writes.logger)
        }
    }

    func saveConsumptionFacts(_ facts: ConsumptionFacts) async throws(StorageError) {
        let sample: Int64? = facts.sampleContentProvided.map { $0 ? 1 : 0 }
        try await withLeasedConnection("storing a transaction's consumption facts") { writes in
            _ = try await writes.connection.query("""
                INSERT INTO consumption_facts (transaction_id, delivery_status, consumption_percentage, sample_content_provided, refund_preference, updated_at)
                VALUES (\(facts.transactionId), \(facts.deliveryStatus), \(facts.consumptionPercentage), \(sample), \(facts.refundPreference), \(facts.updatedAt))
                ON CONFLICT (transaction_id) DO UPDATE SET delivery_status = excluded.delivery_status,
                    consumption_percentage = excluded.consumption_percentage, sample_content_provided = excluded.sample_content_provided,
                    refund_preference = excluded.refund_preference, updated_at = excluded.updated_at
                """, logger: writes.logger)
        }
    }

    func leaseDueRefundRequests(now: Int64, leaseUntil: Int64, limit: Int) async throws(StorageError) -> [LeasedRefundRequest] {
        let limit = Int64(limit)
        return try await withLeasedConnection("leasing due refund requests") { writes in
            var leased: [LeasedRefundRequest] = []
            let rows = try await writes.connection.query("""
                UPDATE refund_requests SET lease_until = \(leaseUntil)
                WHERE id IN (SELECT id FROM refund_requests WHERE state = 'pending' AND next_attempt_at <= \(now) AND lease_until <= \(now)
                             ORDER BY next_attempt_at, id LIMIT \(limit) FOR UPDATE SKIP LOCKED)
                RETURNING id, transaction_id, original_transaction_id, product_type, app_account_token, signed_date, attempts
                """, logger: writes.logger)
            for try await (id, transactionId, purchase, productType, customer, signedDate, attempts)
                in rows.decode((Int64, String, String?, String?, String?, Int64, Int64).self) {
                leased.append(LeasedRefundRequest(id: id, transactionId: transactionId, originalTransactionId: purchase, productType: productType,
                                                  customer: customer, signedDate: signedDate, attempts: attempts))
            }
            return leased
        }
    }

    func refundAnswerInputs(for request: LeasedRefundRequest) async throws(StorageError) -> RefundAnswerInputs {
        try await withLeasedConnection("reading a refund request's consent and facts") { reads in
            var binds = PostgresBindings()
            binds.append(request.originalTransactionId)
            binds.append(request.customer)
            var consented: Bool?
            for try await value in try await reads.connection.query(PostgresQuery(unsafeSQL: SchemaMigrations.consentForRequest, binds: binds),
                                                                     logger: reads.logger).decode(Int64.self) {
                consented = value != 0
            }
            var facts: ConsumptionFacts?
            for try await (delivery, percentage, sample, preference, updatedAt) in try await reads.connection.query("""
                SELECT delivery_status, consumption_percentage, sample_content_provided, refund_preference, updated_at
                FROM consumption_facts WHERE transaction_id = \(request.transactionId)
                """, logger: reads.logger).decode((String?, Int64?, Int64?, String?, Int64).self) {
                facts = ConsumptionFacts(transactionId: request.transactionId, deliveryStatus: delivery, consumptionPercentage: percentage,
                                         sampleContentProvided: sample.map { $0 != 0 }, refundPreference: preference, updatedAt: updatedAt)
            }
            var sent = false
            for try await _ in try await reads.connection.query(
                "SELECT 1 FROM signed_data WHERE transaction_id = \(request.transactionId) AND kind = 'transaction' LIMIT 1",
                logger: reads.logger).decode(Int32.self) {
                sent = true
            }
            return RefundAnswerInputs(consented: consented, facts: facts, appSentTransaction: sent)
        }
    }

    func finishRefundRequest(id: Int64, _ end: RefundRequestEnd, at instant: Int64) async throws(StorageError) {
        try await withLeasedConnection("recording a refund request's answer") { writes in
            _ = try await writes.connection.query("""
                UPDATE refund_requests SET state = \(end.state), reason = \(end.reason), sent_body = \(end.sentBody), sent_at = \(end.sentAt),
                                           apple_answer = COALESCE(\(end.appleAnswer), apple_answer), finished_at = \(instant), lease_until = 0
                WHERE id = \(id) AND state = 'pending'
                """, logger: writes.logger)
        }
    }

    func retryRefundRequest(id: Int64, attempts: Int64, nextAttemptAt: Int64, appleAnswer: String) async throws(StorageError) {
        try await withLeasedConnection("recording a refund request's failed attempt") { writes in
            _ = try await writes.connection.query("""
                UPDATE refund_requests SET attempts = \(attempts), next_attempt_at = \(nextAttemptAt), apple_answer = \(appleAnswer), lease_until = 0
                WHERE id = \(id) AND state = 'pending'
                """, logger: writes.logger)
        }
    }

    func releaseRefundRequest(id: Int64) async throws(StorageError) {
        try await withLeasedConnection("releasing a refund request") { writes in
            _ = try await writes.connection.query("UPDATE refund_requests SET lease_until = 0 WHERE id = \(id) AND state = 'pending'", logger: writes.logger)
        }
    }

    func nextRefundRequestDue() async throws(StorageError) -> Int64? {
        try await withLeasedConnection("reading when the next refund request is due") { reads in
            for try await due in try await reads.connection.query(
                "SELECT MIN(GREATEST(next_attempt_at, lease_until)) FROM refund_requests WHERE state = 'pending'",
                logger: reads.logger).decode(Int64?.self) {
                return due
            }
            return nil
        }
    }

    func refundConsoleData(customer: String) async throws(StorageError) -> RefundConsoleData {
        try await withLeasedConnection("reading a customer's refund requests") { reads in
            var consent: (consented: Bool, updatedAt: Int64)?
            for try await (consented, updatedAt) in try await reads.connection.query(
                "SELECT consented, updated_at FROM consumption_consents WHERE app_account_token = \(customer)",
                logger: reads.logger).decode((Int64, Int64).self) {
                consent = (consented != 0, updatedAt)
            }
            var binds = PostgresBindings()
            binds.append(customer)
            var facts: [ConsumptionFacts] = []
            for try await (transactionId, delivery, percentage, sample, preference, updatedAt) in try await reads.connection.query(
                PostgresQuery(unsafeSQL: SchemaMigrations.consoleConsumptionFacts, binds: binds), logger: reads.logger)
                .decode((String, String?, Int64?, Int64?, String?, Int64).self) {
                facts.append(ConsumptionFacts(transactionId: transactionId, deliveryStatus: delivery, consumptionPercentage: percentage,
                                              sampleContentProvided: sample.map { $0 != 0 }, refundPreference: preference, updatedAt: updatedAt))
            }
            var requests: [ConsoleRefundRequest] = []
            for try await (transactionId, productType, signedDate, state, reason, sentBody, sentAt, appleAnswer, attempts, outcome, outcomeDate)
                in try await reads.connection.query(PostgresQuery(unsafeSQL: SchemaMigrations.consoleRefundRequests, binds: binds), logger: reads.logger)
                .decode((String, String?, Int64, String, String?, String?, Int64?, String?, Int64, String?, Int64?).self) {
                requests.append(ConsoleRefundRequest(transactionId: transactionId, productType: productType, signedDate: signedDate, state: state,
                                                     reason: reason, sentBody: sentBody, sentAt: sentAt, appleAnswer: appleAnswer, attempts: attempts,
                                                     outcome: outcome, outcomeDate: outcomeDate))
            }
            return RefundConsoleData(consent: consent, facts: facts, requests: requests)
        }
    }
}

extension PostgresWrites {
    /// Inserts the pending answer to a `CONSUMPTION_REQUEST`, in the notification's own write
    /// transaction, unless its notification already has one.
    func insertRefundRequest(_ request: RefundRequestRow) async throws {
        _ = try await connection.query("""
            INSERT INTO refund_requests (notification_uuid, transaction_id, original_transaction_id, product_type, app_account_token,
                                         signed_date, received_at, state, next_attempt_at, lease_until, attempts)
            VALUES (\(request.notificationUUID), \(request.transactionId), \(request.originalTransactionId), \(request.productType),
                    \(request.customer), \(request.signedDate), \(request.receivedAt), 'pending', 0, 0, 0)
            ON CONFLICT (notification_uuid) DO NOTHING
            """, logger: logger)
    }
}
