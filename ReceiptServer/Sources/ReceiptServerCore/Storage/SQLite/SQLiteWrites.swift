import AppStoreVerification
import GRDB

/// The store's write transactions on SQLite: synchronous, inside the transaction (or savepoint)
/// the writer opened, so a whole write is one call on the database's thread. ``PostgresWrites``
/// is the same logic on PostgreSQL.
extension Database {
    /// Links the purchase (to `claimedCustomer`, when it names one and the purchase is linked to
    /// none) and inserts `rows`; see ``StoreBackend/storeTransaction(_:purchase:claimedCustomer:receivedAt:operation:afterCommit:)``.
    func storeTransaction(_ rows: [SignedDataRow], purchase: String, claimedCustomer: String?, receivedAt: Int64, headers: JWSHeaderCache?) throws -> StoreWrite.TransactionResult {
        let customer: String
        var newlyLinked = false
        if let claimed = claimedCustomer {
            newlyLinked = try link(purchase, to: claimed, at: receivedAt)
            if !newlyLinked, let linked = try self.customer(ofPurchase: purchase), linked != claimed {
                return StoreWrite.TransactionResult(outcome: .conflict(linkedTo: linked), change: nil)
            }
            customer = claimed
        } else {
            guard let linked = try self.customer(ofPurchase: purchase) else { return StoreWrite.TransactionResult(outcome: .noCustomer, change: nil) }
            customer = linked
        }
        let hadData = newlyLinked ? try hasData(ofPurchase: purchase) : false
        var added: [EntitlementEngine.Item] = []
        for row in rows where try insertSignedData(row, receivedAt: receivedAt, headers: headers) {
            added.append(row.item)
        }
        guard newlyLinked || !added.isEmpty else {
            return StoreWrite.TransactionResult(outcome: .stored(appAccountToken: customer, isNew: false), change: nil)
        }
        let revision = try bumpRevision(of: customer)
        return StoreWrite.TransactionResult(
            outcome: .stored(appAccountToken: customer, isNew: !added.isEmpty),
            change: CustomerChange(customer: customer, revision: revision, previousRevision: revision - 1, items: hadData ? nil : added))
    }

    /// Inserts a notification, linking its purchase to `claimedCustomer` when it is linked to none;
    /// see ``StoreBackend/storeNotification(_:claimedCustomer:refundRequest:receivedAt:operation:afterCommit:)``.
    func storeNotification(_ row: SignedDataRow, claimedCustomer: String?, refundRequest: RefundRequestRow?, receivedAt: Int64, headers: JWSHeaderCache?) throws -> StoreWrite.NotificationResult {
        var customer: String?
        var newlyLinked = false
        var hadData = false
        if let purchase = row.row.originalTransactionId {
            if let claimed = claimedCustomer {
                newlyLinked = try link(purchase, to: claimed, at: receivedAt)
            }
            customer = newlyLinked ? claimedCustomer : try self.customer(ofPurchase: purchase)
            hadData = newlyLinked ? try hasData(ofPurchase: purchase) : false
        }
        let isNew = try insertSignedData(row, receivedAt: receivedAt, headers: headers)
        if let refundRequest { try insertRefundRequest(refundRequest) }
        var change: CustomerChange?
        if let customer, isNew || newlyLinked {
            let revision = try bumpRevision(of: customer)
            change = CustomerChange(customer: customer, revision: revision, previousRevision: revision - 1,
                                    items: hadData ? nil : (isNew ? [row.item] : []))
        }
        return StoreWrite.NotificationResult(outcome: .init(isNew: isNew, appAccountToken: customer), change: change)
    }

    /// One batch of `reverify`.
    func reverify(after id: Int64, limit: Int, now: Int64, verify: StoreWrite.Verify) throws -> StoreWrite.ReverificationBatch {
        let rows = try storedRecords(after: id, limit: limit)
        var batch = StoreWrite.ReverificationBatch(lastId: rows.last?.id)
        for row in rows {
            batch.report.checked += 1
            let fresh = try verify(row.kind, row.jws, row.name)
            if !fresh.rejections.isEmpty { batch.report.rejected += 1 }
            guard fresh != row.records else { continue }
            batch.report.changed += 1
            try updateRecords(id: row.id, fresh, verifiedAt: now)
            if let purchase = row.originalTransactionId, let customer = try self.customer(ofPurchase: purchase), !batch.customers.contains(customer) {
                batch.customers.insert(customer)
                _ = try bumpRevision(of: customer)
            }
        }
        return batch
    }
}
