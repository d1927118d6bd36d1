import Foundation
import GRDB

/// The store's statements on a SQLite connection (GRDB), each a cached prepared statement: prepared
/// once per connection, then only bound and stepped. They run inside the transaction the writer or
/// a read opened.
extension Database {
    /// Inserts a row unless the same JWS (by SHA-256) is stored; answers whether it inserted. Its
    /// header segment is stored once in `jws_headers` (``JWSHeaders``), the rest in `jws`.
    func insertSignedData(_ row: SignedDataRow, receivedAt: Int64, headers: JWSHeaderCache?) throws -> Bool {
        let statement = try cachedStatement(sql: """
            INSERT INTO signed_data (\(SchemaMigrations.signedDataColumns), jws_header)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (jws_sha256) DO NOTHING
            RETURNING id
            """)
        var stored = row.row
        var headerId: Int64?
        if let (length, rest) = JWSHeaders.split(stored.jws) {
            headerId = try jwsHeaderId(of: stored.jws, length: length, cache: headers)
            stored.jws = rest
        }
        var arguments = Self.arguments(stored, sha256: row.sha256, records: row.records, rejectionsJSON: row.rejectionsJSON,
                                       receivedAt: receivedAt, verifiedAt: receivedAt)
        arguments += [headerId]
        return try Int64.fetchOne(statement, arguments: arguments) != nil
    }

    /// The arguments of ``SchemaMigrations/signedDataColumns`` for one row's parts.
    static func arguments(_ data: StoredSignedData, sha256: [UInt8], records: VerifiedRecords, rejectionsJSON: String,
                          receivedAt: Int64, verifiedAt: Int64) -> StatementArguments {
        [data.kind.rawValue, data.jws, Data(sha256), data.originalTransactionId, data.transactionId, data.notificationUUID,
         data.notificationType, data.productId, data.signedDate, receivedAt, records.transactionRecords,
         records.renewalRecords, records.revocationRecords, rejectionsJSON, verifiedAt]
    }

    /// Links `purchase` to `customer` unless it is linked; answers whether it linked it now.
    func link(_ purchase: String, to customer: String, at instant: Int64) throws -> Bool {
        let statement = try cachedStatement(sql: """
            INSERT INTO purchases (original_transaction_id, app_account_token, linked_at) VALUES (?, ?, ?)
            ON CONFLICT (original_transaction_id) DO NOTHING
            RETURNING original_transaction_id
            """)
        return try String.fetchOne(statement, arguments: [purchase, customer, instant]) != nil
    }

    /// The customer `purchase` belongs to, if any.
    func customer(ofPurchase purchase: String) throws -> String? {
        try String.fetchOne(cachedStatement(sql: "SELECT app_account_token FROM purchases WHERE original_transaction_id = ?"), arguments: [purchase])
    }

    /// Whether any JWS of `purchase` is stored.
    func hasData(ofPurchase purchase: String) throws -> Bool {
        try Int.fetchOne(cachedStatement(sql: "SELECT 1 FROM signed_data WHERE original_transaction_id = ? LIMIT 1"), arguments: [purchase]) != nil
    }

    /// Raises the customer's revision by one; returns the new revision.
    func bumpRevision(of customer: String) throws -> Int64 {
        let statement = try cachedStatement(sql: """
            INSERT INTO customers (app_account_token, revision) VALUES (?, 1)
            ON CONFLICT (app_account_token) DO UPDATE SET revision = customers.revision + 1
            RETURNING revision
            """)
        guard let revision = try Int64.fetchOne(statement, arguments: [customer]) else { throw MissingRevision(customer: customer) }
        return revision
    }

    /// The customer's revision (0 when nothing was ever stored for them).
    func revision(of customer: String) throws -> Int64 {
        try Int64.fetchOne(cachedStatement(sql: "SELECT revision FROM customers WHERE app_account_token = ?"), arguments: [customer]) ?? 0
    }

    /// The stored records of every JWS of the customer's purchases, oldest first.
    func records(of customer: String) throws -> [VerifiedRecords] {
        let statement = try cachedStatement(sql: """
            SELECT d.transaction_records, d.renewal_records, d.revocation_records, d.rejections
            FROM signed_data d JOIN purchases p ON p.original_transaction_id = d.original_transaction_id
            WHERE p.app_account_token = ?
            ORDER BY d.id
            """)
        var records: [VerifiedRecords] = []
        let rows = try Row.fetchCursor(statement, arguments: [customer])
        while let row = try rows.next() {
            records.append(VerifiedRecords(
                transactionRecords: row[0] ?? "[]", renewalRecords: row[1] ?? "[]", revocationRecords: row[2] ?? "[]",
                rejections: try VerifiedRecords.rejections(fromJSON: row[3] ?? "[]")))
        }
        return records
    }

    /// Every stored JWS of the customer's purchases, oldest first.
    func signedData(ofCustomer customer: String) throws -> [StoredSignedData] {
        let statement = try cachedStatement(sql: """
            SELECT d.kind, \(JWSHeaders.column), d.original_transaction_id, d.transaction_id, d.notification_uuid,
                   d.notification_type, d.product_id, d.signed_date
            FROM signed_data d JOIN purchases p ON p.original_transaction_id = d.original_transaction_id
            WHERE p.app_account_token = ?
            ORDER BY d.id
            """)
        return try Row.fetchAll(statement, arguments: [customer]).compactMap { row in
            guard let kind = (row[0] as String?).flatMap(SignedDataKind.init(rawValue:)), let jws: String = row[1] else { return nil }
            return StoredSignedData(kind: kind, jws: jws, originalTransactionId: row[2], transactionId: row[3], notificationUUID: row[4],
                                    notificationType: row[5], productId: row[6], signedDate: row[7])
        }
    }

    /// How many JWS are stored, in all or of one kind.
    func countSignedData(of kind: SignedDataKind?) throws -> Int {
        if let kind {
            return try Int.fetchOne(cachedStatement(sql: "SELECT COUNT(*) FROM signed_data WHERE kind = ?"), arguments: [kind.rawValue]) ?? 0
        }
        return try Int.fetchOne(cachedStatement(sql: "SELECT COUNT(*) FROM signed_data")) ?? 0
    }

    /// The latest `signedDate` of a stored notification, if any.
    func lastNotificationSignedDate() throws -> Int64? {
        try Int64.fetchOne(cachedStatement(sql: "SELECT MAX(signed_date) FROM signed_data WHERE kind = 'notification'"))
    }

    /// Whether a notification with this `notificationUUID` is stored.
    func hasNotification(uuid: String) throws -> Bool {
        try Int.fetchOne(cachedStatement(sql: "SELECT 1 FROM signed_data WHERE notification_uuid = ? AND kind = 'notification' LIMIT 1"),
                         arguments: [uuid]) != nil
    }

    /// Up to `limit` stored rows after `id`, for `reverify`.
    func storedRecords(after id: Int64, limit: Int) throws -> [StoreWrite.StoredRecords] {
        let statement = try cachedStatement(sql: """
            SELECT d.id, d.kind, \(JWSHeaders.column), d.original_transaction_id, d.transaction_id, d.notification_uuid,
                   d.transaction_records, d.renewal_records, d.revocation_records, d.rejections
            FROM signed_data d WHERE d.id > ? ORDER BY d.id LIMIT ?
            """)
        return try Row.fetchAll(statement, arguments: [id, limit]).compactMap { row in
            guard let id: Int64 = row[0], let kind = (row[1] as String?).flatMap(SignedDataKind.init(rawValue:)), let jws: String = row[2] else { return nil }
            let purchase: String? = row[3]
            return StoreWrite.StoredRecords(
                id: id, kind: kind, jws: jws,
                name: VerifiedRecords.name(of: kind, transactionId: row[4], notificationUUID: row[5], originalTransactionId: purchase),
                originalTransactionId: purchase,
                records: VerifiedRecords(transactionRecords: row[6] ?? "", renewalRecords: row[7] ?? "", revocationRecords: row[8] ?? "",
                                         rejections: (try? VerifiedRecords.rejections(fromJSON: row[9] ?? "")) ?? []))
        }
    }

    /// Replaces a row's records after `reverify`.
    func updateRecords(id: Int64, _ records: VerifiedRecords, verifiedAt: Int64) throws {
        try cachedStatement(sql: """
            UPDATE signed_data SET transaction_records = ?, renewal_records = ?, revocation_records = ?,
                                   rejections = ?, verified_at = ? WHERE id = ?
            """).execute(arguments: [records.transactionRecords, records.renewalRecords, records.revocationRecords,
                                     try records.rejectionsJSON, verifiedAt, id])
    }
}

/// The revision upsert returned no row.
struct MissingRevision: Error, CustomStringConvertible {
    let customer: String
    var description: String { "the database returned no revision for the customer" }
}
