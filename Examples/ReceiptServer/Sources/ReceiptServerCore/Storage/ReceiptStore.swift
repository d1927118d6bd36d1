import Logging
import SQLiteNIO

/// The server's SQLite database: every verified JWS it accepted, and which customer
/// (`appAccountToken`) each purchase (`originalTransactionId`) belongs to.
///
/// Tables (schema version 1, kept in `PRAGMA user_version`):
/// - `signed_data`: one row per distinct JWS text (`UNIQUE`), so the same JWS sent twice is stored
///   once; kind, ids, `signed_date` (ms since 1970) and `received_at` beside it.
/// - `purchases`: `original_transaction_id` → `app_account_token`. Signed data joins a customer
///   through its purchase, so a notification that arrives before the app sends the purchase (or
///   that carries no `appAccountToken`) counts for the customer as soon as the purchase is linked.
///
/// Every statement goes through one ``SerialGate`` (a write as `BEGIN IMMEDIATE` … `COMMIT`), so
/// requests never see each other's uncommitted writes on the shared connection; the database runs in WAL
/// mode with `synchronous = FULL`, so a `COMMIT` that returned survives a crash or power loss.
public final class ReceiptStore: Sendable {
    /// The schema version this code writes.
    static let schemaVersion = 1

    let connection: SQLiteConnection
    private let gate = SerialGate()

    private init(connection: SQLiteConnection) {
        self.connection = connection
    }

    /// Opens (creating if needed) the database at `path`.
    ///
    /// - Parameters:
    ///   - path: the database file; created with its schema when absent.
    ///   - busyTimeoutMilliseconds: how long a statement waits for a lock another process holds
    ///     before failing with a ``StorageError``.
    ///   - logger: SQLite's logger.
    /// - Throws: ``StorageError`` when the file cannot be opened or was written by a newer schema.
    public static func open(path: String, busyTimeoutMilliseconds: Int = 5000, logger: Logger) async throws(StorageError) -> ReceiptStore {
        let connection: SQLiteConnection
        do {
            connection = try await SQLiteConnection.open(storage: .file(path: path), logger: logger)
        } catch {
            throw StorageError("opening the database file \(path)", error)
        }
        let store = ReceiptStore(connection: connection)
        do {
            try await store.prepare(busyTimeoutMilliseconds: busyTimeoutMilliseconds, path: path)
        } catch {
            try? await connection.close()
            throw error
        }
        return store
    }

    private func prepare(busyTimeoutMilliseconds: Int, path: String) async throws(StorageError) {
        try await execute("configuring the database", [
            "PRAGMA busy_timeout = \(max(0, busyTimeoutMilliseconds))",
            "PRAGMA journal_mode = WAL",
            "PRAGMA synchronous = FULL",
        ])
        let version = try await rows("reading the schema version", "PRAGMA user_version").first?.column("user_version")?.integer ?? 0
        if version > Self.schemaVersion {
            throw StorageError("opening \(path)", SchemaTooNew(found: Int(version), supported: Self.schemaVersion))
        }
        guard version < Self.schemaVersion else { return }
        try await execute("creating the schema", [
            "BEGIN IMMEDIATE",
            """
            CREATE TABLE IF NOT EXISTS signed_data (
                id INTEGER PRIMARY KEY,
                kind TEXT NOT NULL CHECK (kind IN ('transaction', 'renewalInfo', 'notification')),
                jws TEXT NOT NULL UNIQUE,
                original_transaction_id TEXT,
                transaction_id TEXT,
                notification_uuid TEXT,
                notification_type TEXT,
                product_id TEXT,
                signed_date INTEGER,
                received_at INTEGER NOT NULL
            )
            """,
            "CREATE INDEX IF NOT EXISTS signed_data_by_purchase ON signed_data (original_transaction_id)",
            """
            CREATE TABLE IF NOT EXISTS purchases (
                original_transaction_id TEXT PRIMARY KEY,
                app_account_token TEXT NOT NULL,
                linked_at INTEGER NOT NULL
            )
            """,
            "CREATE INDEX IF NOT EXISTS purchases_by_customer ON purchases (app_account_token)",
            "PRAGMA user_version = \(Self.schemaVersion)",
            "COMMIT",
        ])
    }

    /// Closes the database. Call once, after the server stopped taking requests.
    public func close() async throws(StorageError) {
        do {
            try await gate.run { try await self.connection.close() }
        } catch {
            throw StorageError("closing the database", error)
        }
    }

    // MARK: Writes

    /// What storing a transaction did.
    public enum TransactionOutcome: Sendable, Equatable {
        /// The transaction is stored (now, or already before: `isNew` is false for a re-send) and its
        /// purchase belongs to `appAccountToken`.
        case stored(appAccountToken: String, isNew: Bool)
        /// Neither the transaction nor the request named a customer, and its purchase is linked to
        /// none yet. Nothing was stored.
        case noCustomer
        /// The purchase is already linked to another customer. Nothing was stored.
        case conflict(linkedTo: String)
    }

    /// Stores a verified transaction (and, when given, verified renewal info of the same purchase)
    /// for the customer `appAccountToken` (or for the customer its purchase is already linked to,
    /// when `nil`), in one database transaction.
    ///
    /// - Returns: `.stored` with `isNew` true when any of the JWS was not stored before.
    /// - Throws: ``StorageError`` on a database failure; nothing is stored then.
    public func storeTransaction(_ item: StoredSignedData, with others: [StoredSignedData] = [], appAccountToken: String?, receivedAt: Int64) async throws(StorageError) -> TransactionOutcome {
        guard let purchase = item.originalTransactionId else { return .noCustomer }
        return try await writing("storing transaction \(item.transactionId ?? "?")") { () async throws -> TransactionOutcome in
            let linked = try await self.connection.query(
                "SELECT app_account_token FROM purchases WHERE original_transaction_id = ?", [.text(purchase)]
            ).first?.column("app_account_token")?.string
            let customer: String
            switch (linked, appAccountToken) {
            case (nil, nil):
                return .noCustomer
            case (let linked?, let claimed?) where linked != claimed:
                return .conflict(linkedTo: linked)
            case (let linked?, _):
                customer = linked
            case (nil, let claimed?):
                customer = claimed
                _ = try await self.connection.query(
                    "INSERT INTO purchases (original_transaction_id, app_account_token, linked_at) VALUES (?, ?, ?)",
                    [.text(purchase), .text(claimed), .integer(SQLiteInt64(receivedAt))])
            }
            var isNew = try await self.insert(item, receivedAt: receivedAt)
            for other in others where try await self.insert(other, receivedAt: receivedAt) {
                isNew = true
            }
            return .stored(appAccountToken: customer, isNew: isNew)
        }
    }

    /// What storing a notification did.
    public struct NotificationOutcome: Sendable, Equatable {
        /// Whether this JWS was stored now (false: Apple re-sent one already stored).
        public var isNew: Bool
        /// The customer the notification's purchase belongs to, when known.
        public var appAccountToken: String?
    }

    /// Stores a verified notification. When it names a customer and its purchase is linked to none
    /// yet, links it; a purchase already linked keeps its customer.
    ///
    /// - Throws: ``StorageError`` on a database failure; nothing is stored then.
    public func storeNotification(_ item: StoredSignedData, appAccountToken: String?, receivedAt: Int64) async throws(StorageError) -> NotificationOutcome {
        try await writing("storing notification \(item.notificationUUID ?? "?")") { () async throws -> NotificationOutcome in
            var customer: String?
            if let purchase = item.originalTransactionId {
                if let claimed = appAccountToken {
                    _ = try await self.connection.query(
                        "INSERT INTO purchases (original_transaction_id, app_account_token, linked_at) VALUES (?, ?, ?) ON CONFLICT (original_transaction_id) DO NOTHING",
                        [.text(purchase), .text(claimed), .integer(SQLiteInt64(receivedAt))])
                }
                customer = try await self.connection.query(
                    "SELECT app_account_token FROM purchases WHERE original_transaction_id = ?", [.text(purchase)]
                ).first?.column("app_account_token")?.string
            }
            let isNew = try await self.insert(item, receivedAt: receivedAt)
            return NotificationOutcome(isNew: isNew, appAccountToken: customer)
        }
    }

    /// Inserts a row unless the same JWS text is stored; answers whether it inserted.
    private func insert(_ item: StoredSignedData, receivedAt: Int64) async throws -> Bool {
        let inserted = try await connection.query(
            """
            INSERT INTO signed_data (kind, jws, original_transaction_id, transaction_id, notification_uuid,
                                     notification_type, product_id, signed_date, received_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (jws) DO NOTHING
            RETURNING id
            """,
            [.text(item.kind.rawValue), .text(item.jws), Self.text(item.originalTransactionId), Self.text(item.transactionId),
             Self.text(item.notificationUUID), Self.text(item.notificationType), Self.text(item.productId),
             item.signedDate.map { .integer(SQLiteInt64($0)) } ?? .null, .integer(SQLiteInt64(receivedAt))])
        return !inserted.isEmpty
    }

    /// Runs `body` inside `BEGIN IMMEDIATE` … `COMMIT`, alone; rolls back when it throws.
    private func writing<T: Sendable>(_ operation: String, _ body: @escaping @Sendable () async throws -> T) async throws(StorageError) -> T {
        do {
            return try await gate.run {
                _ = try await self.connection.query("BEGIN IMMEDIATE")
                do {
                    let value = try await body()
                    _ = try await self.connection.query("COMMIT")
                    return value
                } catch {
                    _ = try? await self.connection.query("ROLLBACK")
                    throw error
                }
            }
        } catch {
            throw StorageError(operation, error)
        }
    }

    // MARK: Reads

    /// Every stored JWS of the customer's purchases, oldest first.
    ///
    /// - Throws: ``StorageError`` on a database failure.
    public func signedData(forCustomer appAccountToken: String) async throws(StorageError) -> [StoredSignedData] {
        let rows = try await rows(
            "reading the signed data of customer \(appAccountToken)",
            """
            SELECT d.kind, d.jws, d.original_transaction_id, d.transaction_id, d.notification_uuid,
                   d.notification_type, d.product_id, d.signed_date
            FROM signed_data d JOIN purchases p ON p.original_transaction_id = d.original_transaction_id
            WHERE p.app_account_token = ?
            ORDER BY d.id
            """,
            [.text(appAccountToken)])
        return rows.compactMap { row in
            guard let kind = row.column("kind")?.string.flatMap(SignedDataKind.init(rawValue:)),
                  let jws = row.column("jws")?.string
            else { return nil }
            return StoredSignedData(
                kind: kind, jws: jws,
                originalTransactionId: row.column("original_transaction_id")?.string,
                transactionId: row.column("transaction_id")?.string,
                notificationUUID: row.column("notification_uuid")?.string,
                notificationType: row.column("notification_type")?.string,
                productId: row.column("product_id")?.string,
                signedDate: row.column("signed_date")?.integer.map { Int64($0) })
        }
    }

    /// How many JWS are stored, in all or of one kind (for operators and tests).
    ///
    /// - Throws: ``StorageError`` on a database failure.
    public func count(of kind: SignedDataKind? = nil) async throws(StorageError) -> Int {
        let result: [SQLiteRow]
        if let kind {
            result = try await rows("counting signed data", "SELECT COUNT(*) AS n FROM signed_data WHERE kind = ?", [.text(kind.rawValue)])
        } else {
            result = try await rows("counting signed data", "SELECT COUNT(*) AS n FROM signed_data")
        }
        return result.first?.column("n")?.integer.map { Int($0) } ?? 0
    }

    // MARK: Helpers

    /// Runs one query through the gate, so that it never reads inside another request's write.
    private func rows(_ operation: String, _ sql: String, _ binds: [SQLiteData] = []) async throws(StorageError) -> [SQLiteRow] {
        do {
            return try await gate.run { try await self.connection.query(sql, binds) }
        } catch {
            throw StorageError(operation, error)
        }
    }

    private func execute(_ operation: String, _ statements: [String]) async throws(StorageError) {
        do {
            for statement in statements {
                _ = try await connection.query(statement)
            }
        } catch {
            _ = try? await connection.query("ROLLBACK")
            throw StorageError(operation, error)
        }
    }

    private static func text(_ value: String?) -> SQLiteData {
        value.map { .text($0) } ?? .null
    }
}

/// The database was written by a newer version of this server.
struct SchemaTooNew: Error, CustomStringConvertible {
    let found: Int
    let supported: Int
    var description: String {
        "its schema version is \(found) and this server understands up to \(supported); run the newer server, or point --database at another file"
    }
}
