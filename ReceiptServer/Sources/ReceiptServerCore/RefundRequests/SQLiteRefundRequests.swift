import GRDB

/// ``RefundRequestBackend`` on SQLite: writes through the group-commit writer, reads on a reader.
/// One writer at a time holds the file, so a lease is a plain `UPDATE ... RETURNING`.
extension SQLiteBackend: RefundRequestBackend {
    func saveConsent(customer: String, consented: Bool, at instant: Int64) async throws(StorageError) {
        try await write("storing a customer's consumption consent", { db in
            try db.execute(sql: """
                INSERT INTO consumption_consents (app_account_token, consented, updated_at) VALUES (?, ?, ?)
                ON CONFLICT (app_account_token) DO UPDATE SET consented = excluded.consented, updated_at = excluded.updated_at
                """, arguments: [customer, consented ? 1 : 0, instant])
        }, afterCommit: { _ in })
    }

    func saveConsumptionFacts(_ facts: ConsumptionFacts) async throws(StorageError) {
        try await write("storing a transaction's consumption facts", { db in
            try db.execute(sql: """
                INSERT INTO consumption_facts (transaction_id, delivery_status, consumption_percentage, sample_content_provided, refund_preference, updated_at)
                VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (transaction_id) DO UPDATE SET delivery_status = excluded.delivery_status,
                    consumption_percentage = excluded.consumption_percentage, sample_content_provided = excluded.sample_content_provided,
                    refund_preference = excluded.refund_preference, updated_at = excluded.updated_at
                """, arguments: [facts.transactionId, facts.deliveryStatus, facts.consumptionPercentage,
                                 facts.sampleContentProvided.map { $0 ? 1 : 0 }, facts.refundPreference, facts.updatedAt])
        }, afterCommit: { _ in })
    }

    func leaseDueRefundRequests(now: Int64, leaseUntil: Int64, limit: Int) async throws(StorageError) -> [LeasedRefundRequest] {
        try await write("leasing due refund requests", { db in
            try Row.fetchAll(db, sql: """
                UPDATE refund_requests SET lease_until = ?
                WHERE id IN (SELECT id FROM refund_requests WHERE state = 'pending' AND next_attempt_at <= ? AND lease_until <= ?
                             ORDER BY next_attempt_at, id LIMIT ?)
                RETURNING id, transaction_id, original_transaction_id, product_type, app_account_token, signed_date, attempts
                """, arguments: [leaseUntil, now, now, limit]).compactMap { row in
                guard let id: Int64 = row[0], let transactionId: String = row[1], let signedDate: Int64 = row[5] else { return nil }
                return LeasedRefundRequest(id: id, transactionId: transactionId, originalTransactionId: row[2], productType: row[3],
                                           customer: row[4], signedDate: signedDate, attempts: row[6] ?? 0)
            }
        }, afterCommit: { _ in })
    }

    func refundAnswerInputs(for request: LeasedRefundRequest) async throws(StorageError) -> RefundAnswerInputs {
        try await read("reading a refund request's consent and facts") { db in
            let consented = try Int64.fetchOne(db, sql: SchemaMigrations.consentForRequest, arguments: [request.originalTransactionId, request.customer])
            let facts = try Row.fetchOne(db, sql: """
                SELECT delivery_status, consumption_percentage, sample_content_provided, refund_preference, updated_at
                FROM consumption_facts WHERE transaction_id = ?
                """, arguments: [request.transactionId]).map { row in
                ConsumptionFacts(transactionId: request.transactionId, deliveryStatus: row[0], consumptionPercentage: row[1],
                                 sampleContentProvided: (row[2] as Int64?).map { $0 != 0 }, refundPreference: row[3], updatedAt: row[4] ?? 0)
            }
            let sent = try Int64.fetchOne(db, sql: "SELECT 1 FROM signed_data WHERE transaction_id = ? AND kind = 'transaction' LIMIT 1",
                                          arguments: [request.transactionId]) != nil
            return RefundAnswerInputs(consented: consented.map { $0 != 0 }, facts: facts, appSentTransaction: sent)
        }
    }

    func finishRefundRequest(id: Int64, _ end: RefundRequestEnd, at instant: Int64) async throws(StorageError) {
        try await write("recording a refund request's answer", { db in
            try db.execute(sql: """
                UPDATE refund_requests SET state = ?, reason = ?, sent_body = ?, sent_at = ?, apple_answer = COALESCE(?, apple_answer),
                                           finished_at = ?, lease_until = 0
                WHERE id = ? AND state = 'pending'
                """, arguments: [end.state, end.reason, end.sentBody, end.sentAt, end.appleAnswer, instant, id])
        }, afterCommit: { _ in })
    }

    func retryRefundRequest(id: Int64, attempts: Int64, nextAttemptAt: Int64, appleAnswer: String) async throws(StorageError) {
        try await write("recording a refund request's failed attempt", { db in
            try db.execute(sql: """
                UPDATE refund_requests SET attempts = ?, next_attempt_at = ?, apple_answer = ?, lease_until = 0
                WHERE id = ? AND state = 'pending'
                """, arguments: [attempts, nextAttemptAt, appleAnswer, id])
        }, afterCommit: { _ in })
    }

    func releaseRefundRequest(id: Int64) async throws(StorageError) {
        try await write("releasing a refund request", { db in
            try db.execute(sql: "UPDATE refund_requests SET lease_until = 0 WHERE id = ? AND state = 'pending'", arguments: [id])
        }, afterCommit: { _ in })
    }

    func nextRefundRequestDue() async throws(StorageError) -> Int64? {
        try await read("reading when the next refund request is due") { db in
            try Int64.fetchOne(db, sql: "SELECT MIN(MAX(next_attempt_at, lease_until)) FROM refund_requests WHERE state = 'pending'")
        }
    }

    func refundConsoleData(customer: String) async throws(StorageError) -> RefundConsoleData {
        try await read("reading a customer's refund requests") { db in
            let consent = try Row.fetchOne(db, sql: "SELECT consented, updated_at FROM consumption_consents WHERE app_account_token = ?",
                                           arguments: [customer]).map { row in (consented: (row[0] as Int64? ?? 0) != 0, updatedAt: row[1] as Int64? ?? 0) }
            let facts = try Row.fetchAll(db, sql: SchemaMigrations.consoleConsumptionFacts, arguments: [customer]).compactMap { row -> ConsumptionFacts? in
                guard let transactionId: String = row[0] else { return nil }
                return ConsumptionFacts(transactionId: transactionId, deliveryStatus: row[1], consumptionPercentage: row[2],
                                        sampleContentProvided: (row[3] as Int64?).map { $0 != 0 }, refundPreference: row[4], updatedAt: row[5] ?? 0)
            }
            let requests = try Row.fetchAll(db, sql: SchemaMigrations.consoleRefundRequests, arguments: [customer]).compactMap { row -> ConsoleRefundRequest? in
                guard let transactionId: String = row[0], let signedDate: Int64 = row[2], let state: String = row[3] else { return nil }
                return ConsoleRefundRequest(transactionId: transactionId, productType: row[1], signedDate: signedDate, state: state, reason: row[4],
                                            sentBody: row[5], sentAt: row[6], appleAnswer: row[7], attempts: row[8] ?? 0, outcome: row[9], outcomeDate: row[10])
            }
            return RefundConsoleData(consent: consent, facts: facts, requests: requests)
        }
    }
}

extension Database {
    /// Inserts the pending answer to a `CONSUMPTION_REQUEST`, in the notification's own write
    /// transaction, unless its notification already has one.
    func insertRefundRequest(_ request: RefundRequestRow) throws {
        try cachedStatement(sql: SchemaMigrations.insertRefundRequest + """
             VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', 0, 0, 0) ON CONFLICT (notification_uuid) DO NOTHING
            """).execute(arguments: [request.notificationUUID, request.transactionId, request.originalTransactionId, request.productType,
                                     request.customer, request.signedDate, request.receivedAt])
    }
}
