import NIOCore
import PostgresNIO

/// The store's statements on PostgreSQL, as PostgresNIO prepared statements: each is prepared once
/// per pooled connection (PostgresNIO keeps it by name), then only bound and executed.
enum PostgresStatements {
    /// Inserts a row unless the same JWS (by SHA-256) is stored; a row back when it inserted.
    struct InsertSignedData: PostgresPreparedStatement {
        static let sql = """
            INSERT INTO signed_data (\(SchemaMigrations.signedDataColumns))
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $14, $10, $11, $12, $13, $14)
            ON CONFLICT (jws_sha256) DO NOTHING
            RETURNING id
            """
        typealias Row = Int64
        let row: SignedDataRow
        let receivedAt: Int64

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: SignedDataRow.postgresColumnCount + 1)
            row.appendPostgresColumns(to: &bindings)
            bindings.append(receivedAt)  // $14: received_at and verified_at
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Int64 { try row.decode(Int64.self) }
    }

    /// Links a purchase to a customer unless it is linked; a row back when it linked it.
    struct Link: PostgresPreparedStatement {
        static let sql = """
            INSERT INTO purchases (original_transaction_id, app_account_token, linked_at) VALUES ($1, $2, $3)
            ON CONFLICT (original_transaction_id) DO NOTHING
            RETURNING original_transaction_id
            """
        typealias Row = String
        let purchase: String
        let customer: String
        let instant: Int64

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 3)
            bindings.append(purchase)
            bindings.append(customer)
            bindings.append(instant)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> String { try row.decode(String.self) }
    }

    /// The customer a purchase belongs to.
    struct CustomerOfPurchase: PostgresKeyedStatement {
        static let sql = "SELECT app_account_token FROM purchases WHERE original_transaction_id = $1"
        typealias Row = String
        let purchase: String
        var key: String { purchase }
    }

    /// A row when any JWS of a purchase is stored.
    struct HasData: PostgresKeyedStatement {
        static let sql = "SELECT 1 FROM signed_data WHERE original_transaction_id = $1 LIMIT 1"
        typealias Row = Int32
        let purchase: String
        var key: String { purchase }
    }

    /// Raises a customer's revision by one (a row lock on it until the transaction ends); the new
    /// revision.
    struct BumpRevision: PostgresKeyedStatement {
        static let sql = """
            INSERT INTO customers (app_account_token, revision) VALUES ($1, 1)
            ON CONFLICT (app_account_token) DO UPDATE SET revision = customers.revision + 1
            RETURNING revision
            """
        typealias Row = Int64
        let customer: String
        var key: String { customer }
    }

    /// A customer's revision.
    struct Revision: PostgresKeyedStatement {
        static let sql = "SELECT revision FROM customers WHERE app_account_token = $1"
        typealias Row = Int64
        let customer: String
        var key: String { customer }
    }

    /// The stored records of every JWS of a customer's purchases, oldest first.
    struct Records: PostgresKeyedStatement {
        static let sql = """
            SELECT d.transaction_records, d.renewal_records, d.revocation_records, d.rejections
            FROM signed_data d JOIN purchases p ON p.original_transaction_id = d.original_transaction_id
            WHERE p.app_account_token = $1
            ORDER BY d.id
            """
        typealias Row = VerifiedRecords
        let customer: String
        var key: String { customer }

        func decodeRow(_ row: PostgresRow) throws -> VerifiedRecords {
            let (transactions, renewals, revocations, rejections) = try row.decode((String, String, String, String).self)
            return VerifiedRecords(transactionRecords: transactions, renewalRecords: renewals, revocationRecords: revocations,
                                   rejections: try VerifiedRecords.rejections(fromJSON: rejections))
        }
    }

    /// Every stored JWS of a customer's purchases, oldest first.
    struct SignedDataOfCustomer: PostgresKeyedStatement {
        static let sql = """
            SELECT d.kind, d.jws, d.original_transaction_id, d.transaction_id, d.notification_uuid,
                   d.notification_type, d.product_id, d.signed_date
            FROM signed_data d JOIN purchases p ON p.original_transaction_id = d.original_transaction_id
            WHERE p.app_account_token = $1
            ORDER BY d.id
            """
        typealias Row = StoredSignedData?
        let customer: String
        var key: String { customer }

        func decodeRow(_ row: PostgresRow) throws -> StoredSignedData? {
            let (kind, jws, purchase, transactionId, uuid, type, productId, signedDate) =
                try row.decode((String, String, String?, String?, String?, String?, String?, Int64?).self)
            guard let kind = SignedDataKind(rawValue: kind) else { return nil }
            return StoredSignedData(kind: kind, jws: jws, originalTransactionId: purchase, transactionId: transactionId, notificationUUID: uuid,
                                    notificationType: type, productId: productId, signedDate: signedDate)
        }
    }

    /// A row when a notification with a `notificationUUID` is stored.
    struct HasNotification: PostgresKeyedStatement {
        static let sql = "SELECT 1 FROM signed_data WHERE notification_uuid = $1 AND kind = 'notification' LIMIT 1"
        typealias Row = Int32
        let uuid: String
        var key: String { uuid }
    }

    /// Up to `limit` stored rows after `id`, for `reverify`.
    struct StoredRecords: PostgresPreparedStatement {
        static let sql = """
            SELECT id, kind, jws, original_transaction_id, transaction_id, notification_uuid,
                   transaction_records, renewal_records, revocation_records, rejections
            FROM signed_data WHERE id > $1 ORDER BY id LIMIT $2
            """
        typealias Row = StoreWrite.StoredRecords?
        let after: Int64
        let limit: Int64

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 2)
            bindings.append(after)
            bindings.append(limit)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> StoreWrite.StoredRecords? {
            let (id, kind, jws, purchase, transactionId, uuid, transactions, renewals, revocations, rejections) =
                try row.decode((Int64, String, String, String?, String?, String?, String, String, String, String).self)
            guard let kind = SignedDataKind(rawValue: kind) else { return nil }
            return StoreWrite.StoredRecords(
                id: id, kind: kind, jws: jws,
                name: VerifiedRecords.name(of: kind, transactionId: transactionId, notificationUUID: uuid, originalTransactionId: purchase),
                originalTransactionId: purchase,
                records: VerifiedRecords(transactionRecords: transactions, renewalRecords: renewals, revocationRecords: revocations,
                                         rejections: (try? VerifiedRecords.rejections(fromJSON: rejections)) ?? []))
        }
    }
}

/// A statement whose one parameter ($1) is a text: a purchase, a customer or a notification UUID.
protocol PostgresKeyedStatement: PostgresPreparedStatement {
    /// The text bound to $1.
    var key: String { get }
}

extension PostgresKeyedStatement {
    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 1)
        bindings.append(key)
        return bindings
    }
}

extension PostgresKeyedStatement where Row: PostgresDecodable {
    /// The row's one column.
    func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
}

extension SignedDataRow {
    /// How many parameters ``appendPostgresColumns(to:)`` appends.
    static let postgresColumnCount = 13

    /// The row's columns as statement parameters, in this order: kind, jws, jws_sha256,
    /// original_transaction_id, transaction_id, notification_uuid, notification_type, product_id,
    /// signed_date, transaction_records, renewal_records, revocation_records, rejections (the
    /// instants received_at and verified_at are the statement's own).
    func appendPostgresColumns(to bindings: inout PostgresBindings) {
        bindings.append(row.kind.rawValue)
        bindings.append(row.jws)
        bindings.append(ByteBuffer(bytes: sha256))
        bindings.append(row.originalTransactionId)
        bindings.append(row.transactionId)
        bindings.append(row.notificationUUID)
        bindings.append(row.notificationType)
        bindings.append(row.productId)
        bindings.append(row.signedDate)
        bindings.append(records.transactionRecords)
        bindings.append(records.renewalRecords)
        bindings.append(records.revocationRecords)
        bindings.append(rejectionsJSON)
    }
}
