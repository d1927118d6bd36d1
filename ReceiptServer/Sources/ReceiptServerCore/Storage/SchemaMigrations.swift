import Foundation

/// The database schema and how it grows, the same for SQLite and PostgreSQL.
///
/// Applied migrations are rows of `schema_migrations` (version, description, applied_at); on
/// SQLite `PRAGMA user_version` mirrors the latest, so that a server older than the table refuses
/// the upgraded file instead of misreading it. A SQLite database of schema 1 (written before the
/// table existed, `user_version = 1`) is adopted as version 1 and upgraded.
///
/// - 1: `signed_data` (one row per JWS, `UNIQUE` on the JWS text) and `purchases`
///   (`original_transaction_id` → `app_account_token`).
/// - 2: `signed_data` keyed by the SHA-256 of the JWS instead of its text (the unique index on the
///   text was over half the file), with the entitlement engine's records of each JWS beside it
///   (``VerifiedRecords``, computed by verifying every stored JWS once during the upgrade);
///   `customers` with a revision per customer, so servers know when their cached state is current.
/// - 3: an index on `signed_data.notification_uuid`, so the notification backfill finds what it
///   already has by UUID.
enum SchemaMigrations {
    /// The schema version this code writes.
    static let latest = 3

    /// The columns of `signed_data` (schema 2) that ``StoreSQL`` inserts, in order.
    static let signedDataColumns = """
        kind, jws, jws_sha256, original_transaction_id, transaction_id, notification_uuid, notification_type, \
        product_id, signed_date, received_at, transaction_records, renewal_records, revocation_records, rejections, verified_at
        """

    /// Brings the database to ``latest`` in one transaction.
    ///
    /// - Parameters:
    ///   - backend: the database.
    ///   - records: verifies a stored JWS (kind, text, name) for the upgrade to schema 2.
    ///   - now: the time to note in `schema_migrations`.
    /// - Throws: ``StorageError``, also when the database is of a newer schema.
    static func migrate(
        _ backend: any StoreBackend, now: Int64,
        records: @escaping @Sendable (SignedDataKind, String, String) throws -> VerifiedRecords
    ) async throws(StorageError) {
        let dialect = backend.dialect
        try await backend.writeAtStart("upgrading the database schema") { session in
            if dialect == .postgres {
                // Two servers starting at once on one database: one migrates, the other waits.
                _ = try await session.query("SELECT pg_advisory_xact_lock(190019)")
            }
            _ = try await session.query("""
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at BIGINT NOT NULL)
                """)
            var applied = Set(try await session.query("SELECT version FROM schema_migrations").compactMap { $0.integer("version") })
            if dialect == .sqlite, applied.isEmpty {
                let userVersion = try await session.query("PRAGMA user_version").first?.integer("user_version") ?? 0
                if userVersion > Int64(latest) {
                    throw SchemaTooNew(found: Int(userVersion), supported: latest)
                }
                if userVersion == 1 {
                    try await note(1, "schema 1, written before schema_migrations existed", on: session, now: now)
                    applied.insert(1)
                }
            }
            if let newest = applied.max(), newest > Int64(latest) {
                throw SchemaTooNew(found: Int(newest), supported: latest)
            }
            if !applied.contains(1) {
                for statement in schema1(dialect) { _ = try await session.query(statement) }
                try await note(1, "signed_data (unique JWS text) and purchases", on: session, now: now)
            }
            if !applied.contains(2) {
                try await upgradeTo2(dialect, session: session, now: now, records: records)
                try await note(2, "signed_data keyed by SHA-256 with verified records; customers with revisions", on: session, now: now)
            }
            if !applied.contains(3) {
                _ = try await session.query("CREATE INDEX IF NOT EXISTS signed_data_by_notification ON signed_data (notification_uuid)")
                try await note(3, "signed_data indexed by notification_uuid (notification backfill)", on: session, now: now)
            }
            if dialect == .sqlite {
                _ = try await session.query("PRAGMA user_version = \(latest)")
            }
        }
    }

    private static func note(_ version: Int64, _ description: String, on session: any SQLSession, now: Int64) async throws {
        _ = try await session.query(
            "INSERT INTO schema_migrations (version, description, applied_at) VALUES (?, ?, ?)",
            [.integer(version), .text(description), .integer(now)])
    }

    /// Schema 1, as the first (SQLite-only) server wrote it. PostgreSQL's version has no `UNIQUE` on
    /// the JWS text: its B-tree cannot index a text over about 8 KB (a notification JWS is 18 KB), and
    /// schema 2, applied in the same transaction, makes the SHA-256 unique.
    private static func schema1(_ dialect: SQLDialect) -> [String] {
        let id = dialect == .sqlite ? "id INTEGER PRIMARY KEY" : "id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"
        let integer = dialect == .sqlite ? "INTEGER" : "BIGINT"
        let unique = dialect == .sqlite ? " UNIQUE" : ""
        return [
            """
            CREATE TABLE signed_data (
                \(id),
                kind TEXT NOT NULL CHECK (kind IN ('transaction', 'renewalInfo', 'notification')),
                jws TEXT NOT NULL\(unique),
                original_transaction_id TEXT,
                transaction_id TEXT,
                notification_uuid TEXT,
                notification_type TEXT,
                product_id TEXT,
                signed_date \(integer),
                received_at \(integer) NOT NULL
            )
            """,
            "CREATE INDEX signed_data_by_purchase ON signed_data (original_transaction_id)",
            """
            CREATE TABLE purchases (
                original_transaction_id TEXT PRIMARY KEY,
                app_account_token TEXT NOT NULL,
                linked_at \(integer) NOT NULL
            )
            """,
            "CREATE INDEX purchases_by_customer ON purchases (app_account_token)",
        ]
    }

    /// Schema 1 → 2: a new `signed_data` filled from the old one (each JWS hashed and verified once).
    private static func upgradeTo2(
        _ dialect: SQLDialect, session: any SQLSession, now: Int64,
        records: @escaping @Sendable (SignedDataKind, String, String) throws -> VerifiedRecords
    ) async throws {
        let id = dialect == .sqlite ? "id INTEGER PRIMARY KEY" : "id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"
        let integer = dialect == .sqlite ? "INTEGER" : "BIGINT"
        let bytes = dialect == .sqlite ? "BLOB" : "BYTEA"
        _ = try await session.query("""
            CREATE TABLE signed_data_v2 (
                \(id),
                kind TEXT NOT NULL CHECK (kind IN ('transaction', 'renewalInfo', 'notification')),
                jws TEXT NOT NULL,
                jws_sha256 \(bytes) NOT NULL,
                original_transaction_id TEXT,
                transaction_id TEXT,
                notification_uuid TEXT,
                notification_type TEXT,
                product_id TEXT,
                signed_date \(integer),
                received_at \(integer) NOT NULL,
                transaction_records TEXT NOT NULL,
                renewal_records TEXT NOT NULL,
                revocation_records TEXT NOT NULL,
                rejections TEXT NOT NULL,
                verified_at \(integer) NOT NULL
            )
            """)
        var last: Int64 = -1
        while true {
            let rows = try await session.query("""
                SELECT id, kind, jws, original_transaction_id, transaction_id, notification_uuid, notification_type,
                       product_id, signed_date, received_at
                FROM signed_data WHERE id > ? ORDER BY id LIMIT 500
                """, [.integer(last)])
            guard let lastRow = rows.last?.integer("id") else { break }
            last = lastRow
            for row in rows {
                guard let rowId = row.integer("id"), let jws = row.string("jws"),
                      let kind = row.string("kind").flatMap(SignedDataKind.init(rawValue:)) else { continue }
                let stored = StoredSignedData(
                    kind: kind, jws: jws, originalTransactionId: row.string("original_transaction_id"),
                    transactionId: row.string("transaction_id"), notificationUUID: row.string("notification_uuid"),
                    notificationType: row.string("notification_type"), productId: row.string("product_id"),
                    signedDate: row.integer("signed_date"))
                let name = VerifiedRecords.name(of: kind, transactionId: stored.transactionId, notificationUUID: stored.notificationUUID, originalTransactionId: stored.originalTransactionId)
                let verified = try records(kind, jws, name)
                _ = try await session.query(
                    "INSERT INTO signed_data_v2 (id, \(signedDataColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [.integer(rowId)] + (try StoreSQL.binds(stored, verified, receivedAt: row.integer("received_at") ?? now, verifiedAt: now)))
            }
        }
        _ = try await session.query("DROP TABLE signed_data")
        _ = try await session.query("ALTER TABLE signed_data_v2 RENAME TO signed_data")
        _ = try await session.query("CREATE UNIQUE INDEX signed_data_by_hash ON signed_data (jws_sha256)")
        _ = try await session.query("CREATE INDEX signed_data_by_purchase ON signed_data (original_transaction_id)")
        if dialect == .postgres {
            _ = try await session.query(
                "SELECT setval(pg_get_serial_sequence('signed_data', 'id'), (SELECT COALESCE(MAX(id), 0) + 1 FROM signed_data), false)")
        }
        _ = try await session.query("CREATE TABLE customers (app_account_token TEXT PRIMARY KEY, revision \(integer) NOT NULL)")
        _ = try await session.query("INSERT INTO customers (app_account_token, revision) SELECT DISTINCT app_account_token, 1 FROM purchases")
    }
}

/// The database was written by a newer version of this server.
struct SchemaTooNew: Error, CustomStringConvertible {
    let found: Int
    let supported: Int
    var description: String {
        "its schema version is \(found) and this server understands up to \(supported); run the newer server, or point --database at another database"
    }
}
