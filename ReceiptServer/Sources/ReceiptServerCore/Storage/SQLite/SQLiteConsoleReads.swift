import GRDB

/// The support console's reads on SQLite: each one read on a reading connection (one snapshot),
/// with GRDB's cached statements.
extension SQLiteBackend {
    func consoleItems(ofCustomer customer: String, id: Int64?) async throws(StorageError) -> [ConsoleStoredItem] {
        try await read("reading the stored items of a customer for the console") { db in try db.consoleItems(ofCustomer: customer, id: id) }
    }

    func consoleKnows(customer: String) async throws(StorageError) -> Bool {
        try await read("checking a customer for the console") { db in
            if try db.revision(of: customer) > 0 { return true }
            return try Int.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM purchases WHERE app_account_token = ? LIMIT 1"),
                                    arguments: [customer]) != nil
        }
    }

    func consoleMatch(forIdentifier identifier: String) async throws(StorageError) -> ConsoleSearchMatch? {
        try await read("finding a customer by identifier for the console") { db in try db.consoleMatch(forIdentifier: identifier) }
    }
}

extension Database {
    /// See ``StoreBackend/consoleItems(ofCustomer:id:)``.
    func consoleItems(ofCustomer customer: String, id: Int64?) throws -> [ConsoleStoredItem] {
        let statement = try cachedStatement(sql: """
            SELECT d.id, d.kind, \(JWSHeaders.column), d.original_transaction_id, d.transaction_id, d.notification_uuid,
                   d.notification_type, d.product_id, d.signed_date, d.received_at, d.rejections
            FROM signed_data d JOIN purchases p ON p.original_transaction_id = d.original_transaction_id
            WHERE p.app_account_token = ?\(id == nil ? "" : " AND d.id = ?")
            ORDER BY d.id
            """)
        let arguments: StatementArguments = id.map { [customer, $0] } ?? [customer]
        return try Row.fetchAll(statement, arguments: arguments).compactMap { row in
            guard let rowId: Int64 = row[0], let kind = (row[1] as String?).flatMap(SignedDataKind.init(rawValue:)),
                  let jws: String = row[2] else { return nil }
            let stored = StoredSignedData(kind: kind, jws: jws, originalTransactionId: row[3], transactionId: row[4], notificationUUID: row[5],
                                          notificationType: row[6], productId: row[7], signedDate: row[8])
            return ConsoleStoredItem(id: rowId, stored: stored, receivedAt: row[9], rejectionsJSON: row[10])
        }
    }

    /// See ``StoreBackend/consoleMatch(forIdentifier:)``.
    func consoleMatch(forIdentifier identifier: String) throws -> ConsoleSearchMatch? {
        if let customer = try customer(ofPurchase: identifier) { return .customer(customer) }
        let statement = try cachedStatement(sql: """
            SELECT d.original_transaction_id, p.app_account_token
            FROM signed_data d LEFT JOIN purchases p ON p.original_transaction_id = d.original_transaction_id
            WHERE d.original_transaction_id = ? OR d.transaction_id = ? OR d.notification_uuid = ? OR d.notification_uuid = ?
            ORDER BY p.app_account_token IS NULL, d.id
            LIMIT 1
            """)
        guard let row = try Row.fetchOne(statement, arguments: [identifier, identifier, identifier, identifier.lowercased()]) else { return nil }
        if let customer: String = row[1] { return .customer(customer) }
        return (row[0] as String?).map { .unlinkedPurchase($0) }
    }
}
