import AppStoreVerification
import Logging
import PostgresNIO

/// The store's write transactions and reads on one PostgreSQL connection, with the prepared
/// statements of ``PostgresStatements``, inside the transaction ``PostgresBackend`` opened. The same
/// logic as SQLite's (``SQLiteWrites``).
struct PostgresWrites {
    let connection: PostgresConnection
    let logger: Logger

    /// The first row of a prepared statement, if any.
    func first<Statement: PostgresPreparedStatement>(_ statement: Statement) async throws -> Statement.Row? {
        for try await row in try await connection.execute(statement, logger: logger) {
            return row
        }
        return nil
    }

    /// Every row of a prepared statement.
    func all<Statement: PostgresPreparedStatement>(_ statement: Statement) async throws -> [Statement.Row] {
        var rows: [Statement.Row] = []
        for try await row in try await connection.execute(statement, logger: logger) {
            rows.append(row)
        }
        return rows
    }

    func insert(_ row: SignedDataRow, receivedAt: Int64) async throws -> Bool {
        try await first(PostgresStatements.InsertSignedData(row: row, receivedAt: receivedAt)) != nil
    }

    func link(_ purchase: String, to customer: String, at instant: Int64) async throws -> Bool {
        try await first(PostgresStatements.Link(purchase: purchase, customer: customer, instant: instant)) != nil
    }

    func customer(ofPurchase purchase: String) async throws -> String? {
        try await first(PostgresStatements.CustomerOfPurchase(purchase: purchase))
    }

    func hasData(ofPurchase purchase: String) async throws -> Bool {
        try await first(PostgresStatements.HasData(purchase: purchase)) != nil
    }

    func bumpRevision(of customer: String) async throws -> Int64 {
        guard let revision = try await first(PostgresStatements.BumpRevision(customer: customer)) else { throw MissingRevision(customer: customer) }
        return revision
    }

    func revision(of customer: String) async throws -> Int64 {
        try await first(PostgresStatements.Revision(customer: customer)) ?? 0
    }

    /// See ``StoreBackend/storeTransaction(_:purchase:claimedCustomer:receivedAt:operation:afterCommit:)``.
    func storeTransaction(_ rows: [SignedDataRow], purchase: String, claimedCustomer: String?, receivedAt: Int64) async throws -> StoreWrite.TransactionResult {
        let customer: String
        var newlyLinked = false
        if let claimed = claimedCustomer {
            newlyLinked = try await link(purchase, to: claimed, at: receivedAt)
            if !newlyLinked, let linked = try await self.customer(ofPurchase: purchase), linked != claimed {
                return StoreWrite.TransactionResult(outcome: .conflict(linkedTo: linked), change: nil)
            }
            customer = claimed
        } else {
            guard let linked = try await self.customer(ofPurchase: purchase) else { return StoreWrite.TransactionResult(outcome: .noCustomer, change: nil) }
            customer = linked
        }
        let hadData = newlyLinked ? try await hasData(ofPurchase: purchase) : false
        var added: [EntitlementEngine.Item] = []
        for row in rows where try await insert(row, receivedAt: receivedAt) {
            added.append(row.item)
        }
        guard newlyLinked || !added.isEmpty else {
            return StoreWrite.TransactionResult(outcome: .stored(appAccountToken: customer, isNew: false), change: nil)
        }
        let revision = try await bumpRevision(of: customer)
        return StoreWrite.TransactionResult(
            outcome: .stored(appAccountToken: customer, isNew: !added.isEmpty),
            change: CustomerChange(customer: customer, revision: revision, previousRevision: revision - 1, items: hadData ? nil : added))
    }

    /// ``storeTransaction(_:purchase:claimedCustomer:receivedAt:)`` in one statement, outside any
    /// transaction (``PostgresOneStatementTransaction``), for one or two rows; `nil` when another
    /// transaction linked the purchase while the statement ran (it wrote nothing then: run
    /// ``storeTransaction(_:purchase:claimedCustomer:receivedAt:)`` in a transaction instead).
    func storeTransactionInOneStatement(_ rows: [SignedDataRow], purchase: String, claimedCustomer: String?, receivedAt: Int64) async throws -> StoreWrite.TransactionResult? {
        let answers: [PostgresOneStatementTransaction.Answer]
        switch rows.count {
        case 1:
            answers = try await all(PostgresOneStatementTransaction.OneRow(rows: rows, purchase: purchase, claimedCustomer: claimedCustomer, receivedAt: receivedAt))
        case 2:
            answers = try await all(PostgresOneStatementTransaction.TwoRows(rows: rows, purchase: purchase, claimedCustomer: claimedCustomer, receivedAt: receivedAt))
        default:
            return nil
        }
        guard let answer = answers.first else { throw PostgresOneStatementTransaction.NoAnswer() }
        return try PostgresOneStatementTransaction.result(of: answer, rows: rows, claimedCustomer: claimedCustomer)
    }

    /// ``storeNotification(_:claimedCustomer:refundRequest:receivedAt:)`` without a refund request,
    /// in one statement outside any transaction (``PostgresOneStatementNotification``); `nil` when
    /// another transaction linked the purchase while the statement ran (it wrote nothing then).
    func storeNotificationInOneStatement(_ row: SignedDataRow, claimedCustomer: String?, receivedAt: Int64) async throws -> StoreWrite.NotificationResult? {
        let answers = try await all(PostgresOneStatementNotification.Statement(row: row, claimedCustomer: claimedCustomer, receivedAt: receivedAt))
        guard let answer = answers.first else { throw PostgresOneStatementTransaction.NoAnswer() }
        return try PostgresOneStatementNotification.result(of: answer, row: row)
    }

    /// See ``StoreBackend/storeNotification(_:claimedCustomer:refundRequest:receivedAt:operation:afterCommit:)``.
    func storeNotification(_ row: SignedDataRow, claimedCustomer: String?, refundRequest: RefundRequestRow?, receivedAt: Int64) async throws -> StoreWrite.NotificationResult {
        var customer: String?
        var newlyLinked = false
        var hadData = false
        if let purchase = row.row.originalTransactionId {
            if let claimed = claimedCustomer {
                newlyLinked = try await link(purchase, to: claimed, at: receivedAt)
            }
            customer = newlyLinked ? claimedCustomer : try await self.customer(ofPurchase: purchase)
            hadData = newlyLinked ? try await hasData(ofPurchase: purchase) : false
        }
        let isNew = try await insert(row, receivedAt: receivedAt)
        if let refundRequest { try await insertRefundRequest(refundRequest) }
        var change: CustomerChange?
        if let customer, isNew || newlyLinked {
            let revision = try await bumpRevision(of: customer)
            change = CustomerChange(customer: customer, revision: revision, previousRevision: revision - 1,
                                    items: hadData ? nil : (isNew ? [row.item] : []))
        }
        return StoreWrite.NotificationResult(outcome: .init(isNew: isNew, appAccountToken: customer), change: change)
    }

    /// One batch of `reverify`.
    func reverify(after id: Int64, limit: Int, now: Int64, verify: StoreWrite.Verify) async throws -> StoreWrite.ReverificationBatch {
        let rows = try await all(PostgresStatements.StoredRecords(after: id, limit: Int64(limit))).compactMap { $0 }
        var batch = StoreWrite.ReverificationBatch(lastId: rows.last?.id)
        for row in rows {
            batch.report.checked += 1
            let fresh = try verify(row.kind, row.jws, row.name)
            if !fresh.rejections.isEmpty { batch.report.rejected += 1 }
            guard fresh != row.records else { continue }
            batch.report.changed += 1
            let rejections = try fresh.rejectionsJSON
            _ = try await connection.query("""
                UPDATE signed_data SET transaction_records = \(fresh.transactionRecords), renewal_records = \(fresh.renewalRecords),
                                       revocation_records = \(fresh.revocationRecords), rejections = \(rejections), verified_at = \(now)
                WHERE id = \(row.id)
                """, logger: logger)
            if let purchase = row.originalTransactionId, let customer = try await customer(ofPurchase: purchase), !batch.customers.contains(customer) {
                batch.customers.insert(customer)
                _ = try await bumpRevision(of: customer)
            }
        }
        return batch
    }
}
