import AppStoreVerification
import Crypto
import Foundation

/// The store's statements, the same on SQLite and PostgreSQL, each run inside a transaction the
/// backend opened (writes) or on a reading connection (reads).
enum StoreSQL {
    /// One verified JWS to store: the row, its records, and the verified value (for caches).
    struct Prepared: Sendable {
        var row: StoredSignedData
        var records: VerifiedRecords
        var item: EntitlementEngine.Item
    }

    /// The binds of ``SchemaMigrations/signedDataColumns`` for one row.
    static func binds(_ row: StoredSignedData, _ records: VerifiedRecords, receivedAt: Int64, verifiedAt: Int64) throws -> [SQLValue] {
        [.text(row.kind.rawValue), .text(row.jws), .blob(Array(SHA256.hash(data: Data(row.jws.utf8)))),
         .text(row.originalTransactionId), .text(row.transactionId), .text(row.notificationUUID), .text(row.notificationType),
         .text(row.productId), .integer(row.signedDate), .integer(receivedAt),
         .text(records.transactionRecords), .text(records.renewalRecords), .text(records.revocationRecords),
         .text(try records.rejectionsJSON), .integer(verifiedAt)]
    }

    /// Inserts a row unless the same JWS (by SHA-256) is stored; answers whether it inserted.
    static func insert(_ prepared: Prepared, on session: any SQLSession, receivedAt: Int64) async throws -> Bool {
        let inserted = try await session.query(
            """
            INSERT INTO signed_data (\(SchemaMigrations.signedDataColumns))
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (jws_sha256) DO NOTHING
            RETURNING id
            """,
            try binds(prepared.row, prepared.records, receivedAt: receivedAt, verifiedAt: receivedAt))
        return !inserted.isEmpty
    }

    /// Links `purchase` to `customer` unless it is linked; answers whether it linked it now.
    static func link(_ purchase: String, to customer: String, on session: any SQLSession, at instant: Int64) async throws -> Bool {
        !(try await session.query(
            """
            INSERT INTO purchases (original_transaction_id, app_account_token, linked_at) VALUES (?, ?, ?)
            ON CONFLICT (original_transaction_id) DO NOTHING
            RETURNING original_transaction_id
            """,
            [.text(purchase), .text(customer), .integer(instant)])).isEmpty
    }

    /// The customer `purchase` belongs to, if any.
    static func customer(of purchase: String, on session: any SQLSession) async throws -> String? {
        try await session.query("SELECT app_account_token FROM purchases WHERE original_transaction_id = ?", [.text(purchase)])
            .first?.string("app_account_token")
    }

    /// Whether any JWS of `purchase` is stored.
    static func hasData(_ purchase: String, on session: any SQLSession) async throws -> Bool {
        !(try await session.query("SELECT 1 AS found FROM signed_data WHERE original_transaction_id = ? LIMIT 1", [.text(purchase)])).isEmpty
    }

    /// Raises the customer's revision by one; returns the new revision.
    static func bumpRevision(of customer: String, on session: any SQLSession) async throws -> Int64 {
        guard let revision = try await session.query(
            """
            INSERT INTO customers (app_account_token, revision) VALUES (?, 1)
            ON CONFLICT (app_account_token) DO UPDATE SET revision = customers.revision + 1
            RETURNING revision
            """,
            [.text(customer)]).first?.integer("revision")
        else { throw MissingRevision(customer: customer) }
        return revision
    }

    /// The customer's revision (0 when nothing was ever stored for them).
    static func revision(of customer: String, on session: any SQLSession) async throws -> Int64 {
        try await session.query("SELECT revision FROM customers WHERE app_account_token = ?", [.text(customer)])
            .first?.integer("revision") ?? 0
    }

    /// The latest `signedDate` of a stored notification, if any.
    static func lastNotificationSignedDate(on session: any SQLSession) async throws -> Int64? {
        try await session.query("SELECT MAX(signed_date) AS latest FROM signed_data WHERE kind = 'notification'").first?.integer("latest")
    }

    /// Whether a notification with this `notificationUUID` is stored.
    static func hasNotification(_ uuid: String, on session: any SQLSession) async throws -> Bool {
        !(try await session.query("SELECT 1 AS found FROM signed_data WHERE notification_uuid = ? AND kind = 'notification' LIMIT 1", [.text(uuid)])).isEmpty
    }

    /// The stored records of every JWS of the customer's purchases, oldest first.
    static func records(of customer: String, on session: any SQLSession) async throws -> [VerifiedRecords] {
        try await session.query(
            """
            SELECT d.transaction_records, d.renewal_records, d.revocation_records, d.rejections
            FROM signed_data d JOIN purchases p ON p.original_transaction_id = d.original_transaction_id
            WHERE p.app_account_token = ?
            ORDER BY d.id
            """,
            [.text(customer)]).map { row in
            VerifiedRecords(
                transactionRecords: row.string("transaction_records") ?? "[]", renewalRecords: row.string("renewal_records") ?? "[]",
                revocationRecords: row.string("revocation_records") ?? "[]",
                rejections: try VerifiedRecords.rejections(fromJSON: row.string("rejections") ?? "[]"))
        }
    }
}

/// The revision upsert returned no row.
struct MissingRevision: Error, CustomStringConvertible {
    let customer: String
    var description: String { "the database returned no revision for customer \(customer)" }
}
