import Foundation

/// The console's reads of the store, beside the service's own: a customer's rows with their
/// stored verification, and which customer an identifier belongs to.
extension ReceiptStore {
    /// Every stored JWS of the customer's purchases, oldest first (or only row `id`, when it is
    /// theirs).
    ///
    /// - Throws: ``StorageError`` on a database failure.
    func consoleItems(ofCustomer customer: String, id: Int64? = nil) async throws(StorageError) -> [ConsoleStoredItem] {
        try await backend.read("reading the stored items of a customer for the console") { session in
            let onlyRow = id == nil ? "" : " AND d.id = ?"
            let binds: [SQLValue] = [.text(customer)] + (id.map { [.integer($0)] } ?? [])
            return try await session.query(
                """
                SELECT d.id, d.kind, d.jws, d.original_transaction_id, d.transaction_id, d.notification_uuid,
                       d.notification_type, d.product_id, d.signed_date, d.received_at, d.rejections
                FROM signed_data d JOIN purchases p ON p.original_transaction_id = d.original_transaction_id
                WHERE p.app_account_token = ?\(onlyRow)
                ORDER BY d.id
                """,
                binds).compactMap { row -> ConsoleStoredItem? in
                guard let rowId = row.integer("id"), let jws = row.string("jws"),
                      let kind = row.string("kind").flatMap(SignedDataKind.init(rawValue:)) else { return nil }
                let stored = StoredSignedData(
                    kind: kind, jws: jws, originalTransactionId: row.string("original_transaction_id"),
                    transactionId: row.string("transaction_id"), notificationUUID: row.string("notification_uuid"),
                    notificationType: row.string("notification_type"), productId: row.string("product_id"),
                    signedDate: row.integer("signed_date"))
                let rejections = (try? VerifiedRecords.rejections(fromJSON: row.string("rejections") ?? "[]"))
                    ?? [RejectionJSON(item: VerifiedRecords.name(of: kind, transactionId: stored.transactionId, notificationUUID: stored.notificationUUID,
                                                                 originalTransactionId: stored.originalTransactionId),
                                      code: "corruptRecords", message: "the stored rejections are not JSON; run ReceiptServer --reverify")]
                return ConsoleStoredItem(id: rowId, stored: stored, receivedAt: row.integer("received_at") ?? 0, rejections: rejections)
            }
        }
    }

    /// Whether anything was ever stored for the customer.
    ///
    /// - Throws: ``StorageError`` on a database failure.
    func consoleKnows(customer: String) async throws(StorageError) -> Bool {
        try await backend.read("checking a customer for the console") { session in
            if try await StoreSQL.revision(of: customer, on: session) > 0 { return true }
            return !(try await session.query("SELECT 1 AS found FROM purchases WHERE app_account_token = ? LIMIT 1", [.text(customer)])).isEmpty
        }
    }

    /// The customer (or unlinked purchase) a transaction ID, original transaction ID or
    /// notification UUID belongs to; `nil` when nothing stored has it.
    ///
    /// A purchase (`originalTransactionId`) is one indexed read; a `transactionId` of a later
    /// transaction (a renewal) or a `notificationUUID` is looked for in every stored row.
    ///
    /// - Throws: ``StorageError`` on a database failure.
    func consoleMatch(forIdentifier identifier: String) async throws(StorageError) -> ConsoleSearchMatch? {
        try await backend.read("finding a customer by identifier for the console") { session -> ConsoleSearchMatch? in
            if let customer = try await StoreSQL.customer(of: identifier, on: session) {
                return .customer(customer)
            }
            let rows = try await session.query(
                """
                SELECT d.original_transaction_id, p.app_account_token
                FROM signed_data d LEFT JOIN purchases p ON p.original_transaction_id = d.original_transaction_id
                WHERE d.original_transaction_id = ? OR d.transaction_id = ? OR d.notification_uuid = ? OR d.notification_uuid = ?
                ORDER BY p.app_account_token IS NULL, d.id
                LIMIT 1
                """,
                [.text(identifier), .text(identifier), .text(identifier), .text(identifier.lowercased())])
            guard let row = rows.first else { return nil }
            if let customer = row.string("app_account_token") { return .customer(customer) }
            return row.string("original_transaction_id").map { .unlinkedPurchase($0) }
        }
    }
}
