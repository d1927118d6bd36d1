import PostgresNIO

/// A notification stored in one SQL statement, one round trip, without `BEGIN` and `COMMIT`, as
/// ``PostgresOneStatementTransaction`` stores a transaction: the same CTEs with a notification's
/// rules (``PostgresWrites/storeNotification(_:claimedCustomer:refundRequest:receivedAt:)``):
/// the row is stored whoever its purchase belongs to, a claimed customer links an unlinked purchase,
/// and the customer's revision is raised when the purchase was linked or the row is new.
///
/// When another transaction linked the purchase while the statement ran (a customer claimed, the
/// link not inserted, and none in the statement's snapshot), it stores nothing and
/// ``result(of:row:)`` returns `nil`: the caller runs the multi-statement transaction, which sees
/// the link and raises that customer's revision.
enum PostgresOneStatementNotification {
    /// What the statement did.
    struct Answer: Sendable, Equatable {
        /// The customer the notification's purchase belongs to, if any.
        var customer: String?
        /// Whether this statement linked the purchase.
        var newlyLinked: Bool
        /// Whether the purchase it newly linked already had stored JWS.
        var hadData: Bool
        /// Whether the row was inserted.
        var inserted: Bool
        /// The customer's revision after the statement's raise, when it raised it.
        var revision: Int64?
        /// Whether another transaction linked the purchase meanwhile (nothing written).
        var raced: Bool
    }

    /// The statement: parameters as ``PostgresOneStatementTransaction``'s for one row ($1, the
    /// purchase, may be null).
    static let sql = """
        WITH \(PostgresOneStatementTransaction.ownerCTEs), state AS (
            SELECT o.newly_linked AND EXISTS (SELECT 1 FROM signed_data WHERE original_transaction_id = $1::text) AS had,
                   ($1::text IS NOT NULL AND $2::text IS NOT NULL AND o.customer IS NULL) AS raced
            FROM owner o
        ), \(PostgresOneStatementTransaction.incoming(rows: 1)), ins AS (
            INSERT INTO signed_data (\(SchemaMigrations.signedDataColumns))
            SELECT \(PostgresOneStatementTransaction.insertedColumns)
            FROM incoming i, state s
            WHERE NOT s.raced
            ON CONFLICT (jws_sha256) DO NOTHING
            RETURNING 1
        ), bump AS (
            INSERT INTO customers (app_account_token, revision)
            SELECT o.customer, 1 FROM owner o
            WHERE o.customer IS NOT NULL AND (o.newly_linked OR EXISTS (SELECT 1 FROM ins))
            ON CONFLICT (app_account_token) DO UPDATE SET revision = customers.revision + 1
            RETURNING revision
        )
        SELECT o.customer, o.newly_linked, s.had, EXISTS (SELECT 1 FROM ins), (SELECT revision FROM bump), s.raced
        FROM owner o, state s
        """

    /// The store's outcome from the statement's answer, or `nil` when another transaction linked
    /// the purchase meanwhile (nothing was written; run the multi-statement path).
    static func result(of answer: Answer, row: SignedDataRow) throws -> StoreWrite.NotificationResult? {
        if answer.raced { return nil }
        var change: CustomerChange?
        if let customer = answer.customer, answer.inserted || answer.newlyLinked {
            guard let revision = answer.revision else { throw MissingRevision(customer: customer) }
            change = CustomerChange(customer: customer, revision: revision, previousRevision: revision - 1,
                                    items: answer.hadData ? nil : (answer.inserted ? [row.item] : []))
        }
        return StoreWrite.NotificationResult(outcome: .init(isNew: answer.inserted, appAccountToken: answer.customer), change: change)
    }

    /// The prepared statement.
    struct Statement: PostgresPreparedStatement {
        static let sql = PostgresOneStatementNotification.sql
        let row: SignedDataRow
        let claimedCustomer: String?
        let receivedAt: Int64

        func makeBindings() throws -> PostgresBindings {
            PostgresOneStatementTransaction.bindings([row], purchase: row.row.originalTransactionId, claimedCustomer: claimedCustomer, receivedAt: receivedAt)
        }

        func decodeRow(_ row: PostgresRow) throws -> Answer {
            let (customer, newlyLinked, hadData, inserted, revision, raced) = try row.decode((String?, Bool, Bool, Bool, Int64?, Bool).self)
            return Answer(customer: customer, newlyLinked: newlyLinked, hadData: hadData, inserted: inserted, revision: revision, raced: raced)
        }
    }
}
