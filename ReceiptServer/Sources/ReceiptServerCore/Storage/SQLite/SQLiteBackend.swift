import Foundation
import GRDB
import GRDBSQLite
import Logging
import NIOPosix
import Prometheus
import ServiceLifecycle
import Synchronization

/// The embedded store: one SQLite file through GRDB's `DatabasePool`, in WAL mode with
/// `synchronous = FULL` (a commit that returned survives a crash or power loss).
///
/// - Writes wait in ``GroupCommitQueue``; the ``SQLiteWriter`` service takes every waiting one and
///   commits the batch as one transaction in one synchronous call on the pool's writer connection
///   (one fsync for all, each write in its own savepoint so that one failing keeps the others; the
///   statements are cached prepared statements, prepared once per connection). `BEGIN IMMEDIATE`
///   waits at most until the earliest deadline of the batch for a lock another process holds, and
///   the ``WriteDeadlineTimer`` service fails writes still waiting at their deadline.
/// - Reads run on the pool's read-only connections (WAL readers, each read one snapshot), so they
///   never wait behind writes or behind another process's write lock.
final class SQLiteBackend: StoreBackend {
    private let pool: DatabasePool
    private let path: String
    /// The writer's own thread: each batch is one synchronous GRDB write on it (a thread that lives
    /// as long as the store, instead of a dispatch thread made for the work while another waits for
    /// an fsync).
    private let writerThread: NIOThreadPool
    let queue = GroupCommitQueue()
    /// The `jws_headers` ids the writer knows (schema 7, ``JWSHeaders``).
    let headers = JWSHeaderCache()
    let busyTimeoutMilliseconds: Int
    /// Outbound events, written in the transaction of each change (Webhooks/), when configured.
    let webhooks: WebhookOutbox?
    /// `receipt_server_sqlite_wal_bytes_total`, once ``recordWrites(into:)`` was called.
    private let walBytes = Mutex<Counter?>(nil)

    private init(pool: DatabasePool, path: String, writerThread: NIOThreadPool, busyTimeoutMilliseconds: Int, webhooks: WebhookOutbox?) {
        self.pool = pool
        self.path = path
        self.writerThread = writerThread
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        self.webhooks = webhooks
    }

    /// The writer and its deadline timer, for the application's `ServiceGroup` (the timer last, so
    /// that it stops before the writer on shutdown).
    var services: [any Service] {
        [SQLiteWriter(backend: self), WriteDeadlineTimer(queue: queue, busyTimeoutMilliseconds: busyTimeoutMilliseconds)]
    }

    /// Opens (creating if needed) the database file at `path` with `readerCount` reading connections.
    static func open(path: String, readerCount: Int, busyTimeoutMilliseconds: Int, webhooks: WebhookOutbox? = nil, logger: Logger) throws(StorageError) -> SQLiteBackend {
        var configuration = Configuration()
        configuration.label = "ReceiptServer"
        configuration.busyMode = .timeout(TimeInterval(max(0, busyTimeoutMilliseconds)) / 1000)
        configuration.maximumReaderCount = max(1, readerCount)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            // Checkpoint the WAL into the file every 32 MiB rather than every 4 MiB: index pages
            // that every write touches are written back once per checkpoint, not once per 4 MiB.
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 8192")
        }
        do {
            let pool = try DatabasePool(path: path, configuration: configuration)
            let writerThread = NIOThreadPool(numberOfThreads: 1)
            writerThread.start()
            return SQLiteBackend(pool: pool, path: path, writerThread: writerThread, busyTimeoutMilliseconds: busyTimeoutMilliseconds, webhooks: webhooks)
        } catch {
            throw StorageError("opening the database file \(path)", error)
        }
    }

    // MARK: Start

    func migrate(now: Int64, verify: @escaping StoreWrite.Verify) async throws(StorageError) {
        do {
            try await pool.writeWithoutTransaction { db in
                try Self.closingTransaction(db) {
                    try db.inTransaction(.immediate) {
                        try SQLiteSchema.migrate(db, now: now, verify: verify)
                        return .commit
                    }
                }
            }
        } catch {
            throw StorageError("upgrading the database schema", error)
        }
    }

    func closeAtStart() async {
        queue.close()
        try? await closeConnections()
    }

    /// Closes every connection: the writer's last act (``SQLiteWriter``). First the write-ahead log
    /// is checkpointed into the database file and truncated, so the file alone holds everything
    /// (a backup of it is whole, and the next start replays nothing): GRDB closes the writer
    /// before the read-only connections, and the last one to close cannot checkpoint.
    func closeConnections() async throws(StorageError) {
        var failure: (any Error)?
        // A checkpoint that cannot finish (another process reading the file) leaves the log for the
        // next start, which replays it: nothing is lost, so it is no failure of the shutdown.
        _ = try? await pool.writeWithoutTransaction { db in
            try db.checkpoint(.truncate)
        }
        do { try pool.close() } catch { failure = failure ?? error }
        do { try await writerThread.shutdownGracefully() } catch { failure = failure ?? error }
        if let failure { throw StorageError("closing the database", failure) }
    }

    func recordWrites(into metrics: ServerMetrics) {
        let counter = metrics.makeSQLiteWALCounter()
        walBytes.withLock { $0 = counter }
    }

    /// The bytes the writer connection appended to the WAL since the last call: SQLite counts the
    /// pages it hands the WAL (`SQLITE_DBSTATUS_CACHE_WRITE`); each is a frame of the page and a
    /// 24-byte header.
    private static func walBytesWritten(_ db: Database) -> Int64 {
        var pages: Int32 = 0
        var highwater: Int32 = 0
        guard let connection = db.sqliteConnection,
              sqlite3_db_status(connection, SQLITE_DBSTATUS_CACHE_WRITE, &pages, &highwater, 1) == SQLITE_OK else { return 0 }
        let pageSize = (try? Int64.fetchOne(db.cachedStatement(sql: "PRAGMA page_size"))) ?? 4096
        return Int64(pages) * (pageSize + 24)
    }

    // MARK: Writes

    func storeTransaction(
        _ rows: [SignedDataRow], purchase: String, claimedCustomer: String?, receivedAt: Int64, operation: String,
        afterCommit: @escaping @Sendable (StoreWrite.TransactionResult) -> Void
    ) async throws(StorageError) -> StoreWrite.TransactionResult {
        let webhooks = self.webhooks
        let headers = self.headers
        return try await write(operation, { db in
            let result = try db.storeTransaction(rows, purchase: purchase, claimedCustomer: claimedCustomer, receivedAt: receivedAt, headers: headers)
            // Outbound events, in the same transaction (Webhooks/).
            if let webhooks, let change = result.change, let first = rows.first {
                try db.recordEntitlementsChange(of: change.customer, cause: .of(first), outbox: webhooks)
            }
            return result
        }, afterCommit: { result in
            afterCommit(result)
            webhooks?.signal.changed()
        })
    }

    func storeNotification(
        _ row: SignedDataRow, claimedCustomer: String?, refundRequest: RefundRequestRow?, receivedAt: Int64, operation: String,
        afterCommit: @escaping @Sendable (StoreWrite.NotificationResult) -> Void
    ) async throws(StorageError) -> StoreWrite.NotificationResult {
        let webhooks = self.webhooks
        let headers = self.headers
        return try await write(operation, { db in
            let result = try db.storeNotification(row, claimedCustomer: claimedCustomer, refundRequest: refundRequest, receivedAt: receivedAt, headers: headers)
            // Outbound events, in the same transaction (Webhooks/).
            if let webhooks {
                if result.outcome.isNew { try db.recordNotificationReceived(row, customer: result.outcome.appAccountToken, outbox: webhooks) }
                if let change = result.change { try db.recordEntitlementsChange(of: change.customer, cause: .of(row), outbox: webhooks) }
            }
            return result
        }, afterCommit: { result in
            afterCommit(result)
            webhooks?.signal.changed()
        })
    }

    func reverify(after id: Int64, limit: Int, now: Int64, verify: @escaping StoreWrite.Verify) async throws(StorageError) -> StoreWrite.ReverificationBatch {
        let webhooks = self.webhooks
        return try await write("verifying stored signed data again (rows after id \(id))", { db in
            let batch = try db.reverify(after: id, limit: limit, now: now, verify: verify)
            // Outbound events, in the same transaction (Webhooks/).
            if let webhooks {
                for customer in batch.customers.sorted() { try db.recordEntitlementsChange(of: customer, cause: .reverification, outbox: webhooks) }
            }
            return batch
        }, afterCommit: { _ in webhooks?.signal.changed() })
    }

    /// Queues `work` for the writer and returns once its batch committed (or failed).
    func write<T: Sendable>(
        _ operation: String, _ work: @escaping @Sendable (Database) throws -> T, afterCommit: @escaping @Sendable (T) -> Void
    ) async throws(StorageError) -> T {
        let deadline = ContinuousClock.now + .milliseconds(busyTimeoutMilliseconds)
        do {
            return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                queue.enqueue(GroupCommitQueue.Job(
                    deadline: deadline, operation: operation,
                    run: { db in
                        let value = try work(db)
                        return {
                            afterCommit(value)
                            continuation.resume(returning: value)
                        }
                    },
                    fail: { continuation.resume(throwing: $0) }))
            }
        } catch let error as StorageError {
            throw error
        } catch {
            throw StorageError(operation, error)
        }
    }

    /// What one batch did: the deliveries of the writes that committed, the failures by index.
    private struct BatchResult: Sendable {
        var deliveries: [@Sendable () -> Void] = []
        var failures: [Int: any Error] = [:]
        /// What the batch appended to the WAL.
        var walBytes: Int64 = 0
    }

    /// Runs one batch in one transaction, in one call on the writer's connection; returns the busy
    /// timeout the connection is left with.
    func commit(_ batch: [GroupCommitQueue.Job], busyTimeout current: Int) async -> Int {
        let now = ContinuousClock.now
        var live: [GroupCommitQueue.Job] = []
        for job in batch {
            if job.deadline <= now {
                job.fail(StorageError(job.operation, LockWaitTimedOut(milliseconds: current)))
            } else {
                live.append(job)
            }
        }
        guard let earliest = live.map(\.deadline).min() else { return current }
        // Wait for another process's lock no longer than the most urgent request may wait.
        let remaining = earliest - now
        let wait = max(1, Int(remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000))
        let jobs = live
        let result: BatchResult
        let pool = self.pool
        let headers = self.headers
        do {
            result = try await writerThread.runIfActive { try pool.writeWithoutTransaction { db in
                try Self.closingTransaction(db) {
                    if wait != current {
                        try db.execute(sql: "PRAGMA busy_timeout = \(wait)")
                    }
                    do {
                        try db.beginTransaction(.immediate)
                    } catch {
                        throw StartFailed(underlying: error)
                    }
                    var result = BatchResult()
                    for (index, job) in jobs.enumerated() {
                        if jobs.count == 1 {
                            do { result.deliveries.append(try job.run(db)) } catch { result.failures[index] = error }
                            continue
                        }
                        // Cached statements: prepared once per connection, not parsed per write.
                        try db.cachedStatement(sql: "SAVEPOINT item").execute()
                        do {
                            result.deliveries.append(try job.run(db))
                            try db.cachedStatement(sql: "RELEASE item").execute()
                        } catch {
                            result.failures[index] = error
                            headers.rolledBack()
                            try db.cachedStatement(sql: "ROLLBACK TO item").execute()
                            try db.cachedStatement(sql: "RELEASE item").execute()
                        }
                    }
                    if result.failures.count == jobs.count {
                        headers.rolledBack()
                        try db.rollback()
                    } else {
                        try db.commit()
                        headers.committed()
                    }
                    result.walBytes = Self.walBytesWritten(db)
                    return result
                }
            } }
        } catch let error as StartFailed {
            headers.rolledBack()
            for job in jobs { job.fail(StorageError("\(job.operation) (starting the write)", error.underlying)) }
            return wait
        } catch {
            headers.rolledBack()
            for job in jobs { job.fail(StorageError(job.operation, error)) }
            return wait
        }
        if result.walBytes > 0, let counter = walBytes.withLock({ $0 }) { counter.increment(by: result.walBytes) }
        for delivery in result.deliveries { delivery() }
        for (index, error) in result.failures.sorted(by: { $0.key < $1.key }) {
            let job = jobs[index]
            job.fail(error as? StorageError ?? StorageError(job.operation, error))
        }
        return wait
    }

    /// Runs `body`, and rolls back any transaction it left open (a failed `COMMIT` can leave one),
    /// so that no database access ends inside a transaction.
    private static func closingTransaction<T>(_ db: Database, _ body: () throws -> T) throws -> T {
        defer {
            if db.isInsideTransaction { try? db.rollback() }
        }
        return try body()
    }

    /// `BEGIN IMMEDIATE` failed: nothing of the batch ran.
    private struct StartFailed: Error {
        let underlying: any Error
    }

    // MARK: Reads

    /// Runs `work` on a reading connection, in one snapshot.
    func read<T: Sendable>(_ operation: String, _ work: @escaping @Sendable (Database) throws -> T) async throws(StorageError) -> T {
        do {
            return try await pool.read(work)
        } catch {
            throw StorageError(operation, error)
        }
    }

    func revision(of customer: String) async throws(StorageError) -> Int64 {
        try await read("reading a customer's revision") { db in try db.revision(of: customer) }
    }

    func records(of customer: String) async throws(StorageError) -> (revision: Int64, records: [VerifiedRecords]) {
        try await read("reading a customer's records") { db in (try db.revision(of: customer), try db.records(of: customer)) }
    }

    func signedData(forCustomer customer: String) async throws(StorageError) -> [StoredSignedData] {
        try await read("reading a customer's signed data") { db in try db.signedData(ofCustomer: customer) }
    }

    func count(of kind: SignedDataKind?) async throws(StorageError) -> Int {
        try await read("counting signed data") { db in try db.countSignedData(of: kind) }
    }

    func lastNotificationSignedDate() async throws(StorageError) -> Int64? {
        try await read("reading the latest stored notification's signedDate") { db in try db.lastNotificationSignedDate() }
    }

    func hasNotification(uuid: String) async throws(StorageError) -> Bool {
        try await read("looking up notification \(uuid)") { db in try db.hasNotification(uuid: uuid) }
    }
}
