import NIOCore
import PostgresNIO

/// A transaction (and the renewal info sent with it) stored in one SQL statement, one round trip,
/// without `BEGIN` and `COMMIT`: a single statement is atomic on its own. Data-modifying CTEs do
/// what ``PostgresWrites/storeTransaction(_:purchase:claimedCustomer:receivedAt:)`` does in five
/// statements, with the same outcomes:
///
/// - `prior`: the customer the purchase is linked to, in the statement's snapshot;
/// - `linked`: links the purchase to the claimed customer unless it is linked (`ON CONFLICT DO
///   NOTHING`);
/// - `owner`: the customer it now belongs to, and whether this statement linked it;
/// - `had`: whether the purchase, newly linked, already had stored JWS (its customer's cached
///   engine then cannot simply add the new rows);
/// - `ins`: inserts the rows unless stored (`ON CONFLICT (jws_sha256) DO NOTHING`), only when the
///   purchase belongs to the claimed customer (or, when none is claimed, to any);
/// - `bump`: raises the customer's revision when the purchase was linked or a row inserted.
///
/// A purchase linked by another transaction that commits while this statement runs is invisible
/// to `prior` (its snapshot is older) and makes `linked` insert nothing: `owner` is then empty
/// although a customer was claimed, nothing was written, and
/// ``PostgresOneStatementTransaction/result(of:rows:claimedCustomer:)`` returns `nil` so that the
/// caller runs the statements of ``PostgresWrites`` instead, which see that link.
enum PostgresOneStatementTransaction {
    /// The most rows one statement stores (a transaction and its renewal info); more take the
    /// multi-statement path.
    static let maximumRows = 2

    /// What the statement did.
    struct Answer: Sendable, Equatable {
        /// The customer the purchase belongs to, if any (`nil` also when another transaction linked
        /// it meanwhile: see the type's documentation).
        var customer: String?
        /// Whether this statement linked the purchase.
        var newlyLinked: Bool
        /// Whether the purchase it newly linked already had stored JWS.
        var hadData: Bool
        /// Bit `i` set when row `i` was inserted.
        var inserted: Int32
        /// The customer's revision after the statement's raise, when it raised it.
        var revision: Int64?
    }

    /// The statement for `count` rows (13 parameters a row after the purchase, the claimed
    /// customer and the instant).
    static func sql(rows count: Int) -> String {
        """
            WITH \(ownerCTEs), had AS (
                SELECT o.newly_linked AND EXISTS (SELECT 1 FROM signed_data WHERE original_transaction_id = $1::text) AS had
                FROM owner o
            ), \(incoming(rows: count)), ins AS (
                INSERT INTO signed_data (\(SchemaMigrations.signedDataColumns))
                SELECT \(insertedColumns)
                FROM incoming i, owner o
                WHERE o.customer IS NOT NULL AND ($2::text IS NULL OR o.customer = $2::text)
                ORDER BY i.ordinal
                ON CONFLICT (jws_sha256) DO NOTHING
                RETURNING jws_sha256
            ), bump AS (
                INSERT INTO customers (app_account_token, revision)
                SELECT o.customer, 1 FROM owner o
                WHERE o.newly_linked OR EXISTS (SELECT 1 FROM ins)
                ON CONFLICT (app_account_token) DO UPDATE SET revision = customers.revision + 1
                RETURNING revision
            )
            SELECT o.customer, o.newly_linked, (SELECT had FROM had),
                   (SELECT COALESCE(bit_or(1 << i.ordinal), 0) FROM incoming i JOIN ins ON ins.jws_sha256 = i.jws_sha256),
                   (SELECT revision FROM bump)
            FROM owner o
            """
    }

    /// The CTEs `prior` (the customer the purchase $1 is linked to, in the statement's snapshot),
    /// `linked` (links it to the claimed customer $2 at $3 unless it is linked) and `owner` (the
    /// customer it now belongs to, and whether this statement linked it); shared by the
    /// transaction's and the notification's statements.
    static let ownerCTEs = """
        prior AS (
            SELECT app_account_token FROM purchases WHERE original_transaction_id = $1::text
        ), linked AS (
            INSERT INTO purchases (original_transaction_id, app_account_token, linked_at)
            SELECT $1::text, $2::text, $3::bigint WHERE $1::text IS NOT NULL AND $2::text IS NOT NULL
            ON CONFLICT (original_transaction_id) DO NOTHING
            RETURNING app_account_token
        ), owner AS (
            SELECT COALESCE((SELECT app_account_token FROM linked), (SELECT app_account_token FROM prior)) AS customer,
                   EXISTS (SELECT 1 FROM linked) AS newly_linked
        )
        """

    /// The CTE `incoming`: the `count` rows to insert, as parameters from $4 on (13 a row), with
    /// their ordinal.
    static func incoming(rows count: Int) -> String {
        let columnsPerRow = SignedDataRow.postgresColumnCount
        let values = (0..<count).map { index in
            let first = 4 + index * columnsPerRow
            return "(\(index), $\(first)::text, $\(first + 1)::text, $\(first + 2)::bytea, $\(first + 3)::text, $\(first + 4)::text, "
                + "$\(first + 5)::text, $\(first + 6)::text, $\(first + 7)::text, $\(first + 8)::bigint, $\(first + 9)::text, "
                + "$\(first + 10)::text, $\(first + 11)::text, $\(first + 12)::text)"
        }.joined(separator: ", ")
        return """
            incoming (ordinal, kind, jws, jws_sha256, original_transaction_id, transaction_id, notification_uuid,
                      notification_type, product_id, signed_date, transaction_records, renewal_records, revocation_records, rejections) AS (
                VALUES \(values)
            )
            """
    }

    /// The columns `ins` inserts, from `incoming i` ($3: the instant, received and verified).
    static let insertedColumns = """
        i.kind, i.jws, i.jws_sha256, i.original_transaction_id, i.transaction_id, i.notification_uuid, i.notification_type, \
        i.product_id, i.signed_date, $3::bigint, i.transaction_records, i.renewal_records, i.revocation_records, i.rejections, $3::bigint
        """

    /// The statement returned no row (it always returns one).
    struct NoAnswer: Error, CustomStringConvertible {
        var description: String { "the database returned no row for the one-statement write" }
    }

    /// The statement's parameters.
    static func bindings(_ rows: [SignedDataRow], purchase: String?, claimedCustomer: String?, receivedAt: Int64) -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 3 + SignedDataRow.postgresColumnCount * rows.count)
        bindings.append(purchase)
        bindings.append(claimedCustomer)
        bindings.append(receivedAt)
        for row in rows { row.appendPostgresColumns(to: &bindings) }
        return bindings
    }

    /// The store's outcome from the statement's answer, or `nil` when another transaction linked
    /// the purchase meanwhile (nothing was written; run the multi-statement path).
    static func result(of answer: Answer, rows: [SignedDataRow], claimedCustomer: String?) throws -> StoreWrite.TransactionResult? {
        guard let customer = answer.customer else {
            return claimedCustomer == nil ? StoreWrite.TransactionResult(outcome: .noCustomer, change: nil) : nil
        }
        if let claimedCustomer, customer != claimedCustomer {
            return StoreWrite.TransactionResult(outcome: .conflict(linkedTo: customer), change: nil)
        }
        let added = rows.indices.filter { answer.inserted & (1 << $0) != 0 }.map { rows[$0].item }
        guard answer.newlyLinked || !added.isEmpty else {
            return StoreWrite.TransactionResult(outcome: .stored(appAccountToken: customer, isNew: false), change: nil)
        }
        guard let revision = answer.revision else { throw MissingRevision(customer: customer) }
        return StoreWrite.TransactionResult(
            outcome: .stored(appAccountToken: customer, isNew: !added.isEmpty),
            change: CustomerChange(customer: customer, revision: revision, previousRevision: revision - 1, items: answer.hadData ? nil : added))
    }

    /// The statement for one row (a transaction alone).
    struct OneRow: OneStatementTransactionStatement {
        static let sql = PostgresOneStatementTransaction.sql(rows: 1)
        let rows: [SignedDataRow]
        let purchase: String
        let claimedCustomer: String?
        let receivedAt: Int64
    }

    /// The statement for two rows (a transaction and its renewal info).
    struct TwoRows: OneStatementTransactionStatement {
        static let sql = PostgresOneStatementTransaction.sql(rows: 2)
        let rows: [SignedDataRow]
        let purchase: String
        let claimedCustomer: String?
        let receivedAt: Int64
    }
}

/// ``PostgresOneStatementTransaction``'s statement for a fixed number of rows.
protocol OneStatementTransactionStatement: PostgresPreparedStatement where Row == PostgresOneStatementTransaction.Answer {
    var rows: [SignedDataRow] { get }
    var purchase: String { get }
    var claimedCustomer: String? { get }
    var receivedAt: Int64 { get }
}

extension OneStatementTransactionStatement {
    func makeBindings() throws -> PostgresBindings {
        PostgresOneStatementTransaction.bindings(rows, purchase: purchase, claimedCustomer: claimedCustomer, receivedAt: receivedAt)
    }

    func decodeRow(_ row: PostgresRow) throws -> PostgresOneStatementTransaction.Answer {
        let (customer, newlyLinked, hadData, inserted, revision) = try row.decode((String?, Bool, Bool, Int32, Int64?).self)
        return .init(customer: customer, newlyLinked: newlyLinked, hadData: hadData, inserted: inserted, revision: revision)
    }
}
