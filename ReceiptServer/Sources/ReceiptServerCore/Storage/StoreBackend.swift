import ServiceLifecycle

/// A database the store runs on: SQLite through GRDB (``SQLiteBackend``) or PostgreSQL through
/// PostgresNIO (``PostgresBackend``). Each runs the store's operations in its own library's
/// idiom, with the same tables (``SchemaMigrations``) and the same meaning: SQLite runs each write
/// transaction (a batch of them) as one synchronous call on its writer with cached prepared
/// statements; PostgreSQL runs each one on a pooled connection with prepared statements.
///
/// Its long-running parts (SQLite's writer and its deadline timer, PostgreSQL's connection pool)
/// are ``services``, run in the application's `ServiceGroup`; every operation but
/// ``migrate(now:verify:)`` needs them running. They close the database when they end.
protocol StoreBackend: Sendable, RefundRequestBackend {
    /// The services that must run while the store is used, in start order.
    var services: [any Service] { get }

    /// Brings the schema to ``SchemaMigrations/latest`` in one transaction, before the services
    /// run.
    ///
    /// - Throws: ``StorageError``, also when the database is of a newer schema.
    func migrate(now: Int64, verify: @escaping StoreWrite.Verify) async throws(StorageError)

    /// Closes what ``migrate(now:verify:)`` opened, when the store is abandoned before its services
    /// ever run (a failed migration).
    func closeAtStart() async

    /// Counts what the database writes into `metrics` from now on (SQLite: its WAL bytes).
    func recordWrites(into metrics: ServerMetrics)

    /// Stores a transaction (and renewal info of its purchase) for `claimedCustomer`, or for the
    /// customer the purchase is linked to, in one write transaction; `afterCommit` runs with the
    /// result once it committed, in commit order, before this returns.
    ///
    /// - Throws: ``StorageError`` when the database fails or stays busy past the busy timeout;
    ///   nothing is stored then.
    func storeTransaction(
        _ rows: [SignedDataRow], purchase: String, claimedCustomer: String?, receivedAt: Int64, operation: String,
        afterCommit: @escaping @Sendable (StoreWrite.TransactionResult) -> Void
    ) async throws(StorageError) -> StoreWrite.TransactionResult

    /// Stores a notification, linking its purchase to `claimedCustomer` when it is linked to none,
    /// and, in the same transaction, the pending answer to it when it is a refund request.
    ///
    /// - Throws: ``StorageError``; nothing is stored then.
    func storeNotification(
        _ row: SignedDataRow, claimedCustomer: String?, refundRequest: RefundRequestRow?, receivedAt: Int64, operation: String,
        afterCommit: @escaping @Sendable (StoreWrite.NotificationResult) -> Void
    ) async throws(StorageError) -> StoreWrite.NotificationResult

    /// Verifies up to `limit` stored rows after `id` again with `verify`, stores what changed and
    /// raises the revisions of their customers, in one write transaction.
    ///
    /// - Throws: ``StorageError``; batches committed before stay.
    func reverify(after id: Int64, limit: Int, now: Int64, verify: @escaping StoreWrite.Verify) async throws(StorageError) -> StoreWrite.ReverificationBatch

    /// The customer's revision (0 when nothing was ever stored for them).
    func revision(of customer: String) async throws(StorageError) -> Int64

    /// The customer's revision and the records of every JWS of their purchases, oldest first, read
    /// together (the records include at least what the revision counts).
    func records(of customer: String) async throws(StorageError) -> (revision: Int64, records: [VerifiedRecords])

    /// Every stored JWS of the customer's purchases, oldest first.
    func signedData(forCustomer customer: String) async throws(StorageError) -> [StoredSignedData]

    /// How many JWS are stored, in all or of one kind.
    func count(of kind: SignedDataKind?) async throws(StorageError) -> Int

    /// The latest `signedDate` of a stored notification, if any.
    func lastNotificationSignedDate() async throws(StorageError) -> Int64?

    /// Whether a notification with this `notificationUUID` is stored.
    func hasNotification(uuid: String) async throws(StorageError) -> Bool

    // MARK: The support console's reads

    /// Every stored JWS of the customer's purchases with its row number, arrival and stored
    /// rejections, oldest first (or only row `id`, when it is theirs).
    func consoleItems(ofCustomer customer: String, id: Int64?) async throws(StorageError) -> [ConsoleStoredItem]

    /// Whether anything was ever stored for the customer (a revision, or a purchase linked to them).
    func consoleKnows(customer: String) async throws(StorageError) -> Bool

    /// The customer a purchase (`originalTransactionId`) is linked to, else the customer (or, when
    /// none, the unlinked purchase) of the first stored row whose `originalTransactionId`,
    /// `transactionId` or `notificationUUID` (also lowercased) is `identifier`, linked rows first.
    func consoleMatch(forIdentifier identifier: String) async throws(StorageError) -> ConsoleSearchMatch?
}
