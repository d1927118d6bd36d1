import PostgresNIO

/// The support console's reads on PostgreSQL: interpolated queries (PostgresNIO binds every
/// interpolated value as a parameter) on a pool connection, outside the hot path, so not prepared.
extension PostgresBackend {
    func consoleItems(ofCustomer customer: String, id: Int64?) async throws(StorageError) -> [ConsoleStoredItem] {
        try await withLeasedConnection("reading the stored items of a customer for the console") { reads in
            let query: PostgresQuery
            if let id {
                query = """
                    SELECT d.id, d.kind, d.jws, d.original_transaction_id, d.transaction_id, d.notification_uuid,
                           d.notification_type, d.product_id, d.signed_date, d.received_at, d.rejections
                    FROM signed_data d JOIN purchases p ON p.original_transaction_id = d.original_transaction_id
                    WHERE p.app_account_token = \(customer) AND d.id = \(id)
                    ORDER BY d.id
                    """
            } else {
                query = """
                    SELECT d.id, d.kind, d.jws, d.original_transaction_id, d.transaction_id, d.notification_uuid,
                           d.notification_type, d.product_id, d.signed_date, d.received_at, d.rejections
                    FROM signed_data d JOIN purchases p ON p.original_transaction_id = d.original_transaction_id
                    WHERE p.app_account_token = \(customer)
                    ORDER BY d.id
                    """
            }
            var items: [ConsoleStoredItem] = []
            let rows = try await reads.connection.query(query, logger: reads.logger)
            for try await (rowId, kind, jws, purchase, transactionId, uuid, type, productId, signedDate, receivedAt, rejections)
                in rows.decode((Int64, String, String, String?, String?, String?, String?, String?, Int64?, Int64?, String?).self) {
                guard let kind = SignedDataKind(rawValue: kind) else { continue }
                let stored = StoredSignedData(kind: kind, jws: jws, originalTransactionId: purchase, transactionId: transactionId,
                                              notificationUUID: uuid, notificationType: type, productId: productId, signedDate: signedDate)
                items.append(ConsoleStoredItem(id: rowId, stored: stored, receivedAt: receivedAt, rejectionsJSON: rejections))
            }
            return items
        }
    }

    func consoleKnows(customer: String) async throws(StorageError) -> Bool {
        try await withLeasedConnection("checking a customer for the console") { reads in
            if try await reads.revision(of: customer) > 0 { return true }
            for try await _ in try await reads.connection.query(
                "SELECT 1 FROM purchases WHERE app_account_token = \(customer) LIMIT 1", logger: reads.logger) {
                return true
            }
            return false
        }
    }

    func consoleMatch(forIdentifier identifier: String) async throws(StorageError) -> ConsoleSearchMatch? {
        try await withLeasedConnection("finding a customer by identifier for the console") { reads -> ConsoleSearchMatch? in
            if let customer = try await reads.customer(ofPurchase: identifier) { return .customer(customer) }
            let lowercased = identifier.lowercased()
            let rows = try await reads.connection.query(
                """
                SELECT d.original_transaction_id, p.app_account_token
                FROM signed_data d LEFT JOIN purchases p ON p.original_transaction_id = d.original_transaction_id
                WHERE d.original_transaction_id = \(identifier) OR d.transaction_id = \(identifier)
                   OR d.notification_uuid = \(identifier) OR d.notification_uuid = \(lowercased)
                ORDER BY p.app_account_token IS NULL, d.id
                LIMIT 1
                """, logger: reads.logger)
            for try await (purchase, customer) in rows.decode((String?, String?).self) {
                if let customer { return .customer(customer) }
                return purchase.map { .unlinkedPurchase($0) }
            }
            return nil
        }
    }
}
