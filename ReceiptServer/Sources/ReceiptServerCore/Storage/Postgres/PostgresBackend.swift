import Foundation
import Logging
import NIOCore
import NIOSSL
import PostgresNIO
import ServiceLifecycle
import Synchronization

/// The shared store: a PostgreSQL database, for several server processes behind a load balancer.
///
/// - A pool of at most `maximumConnections` connections (PostgresNIO's `PostgresClient`); every
///   read and every write takes one, so reads never wait behind writes.
/// - Each write is its own `READ COMMITTED` transaction. The store's statements make concurrent
///   writers of any process safe (`ON CONFLICT` on the JWS hash and the purchase link, a row lock on
///   the customer's revision); a deadlock or serialization failure is retried twice. PostgreSQL
///   commits concurrent transactions with one WAL flush (group commit) on its own.
/// - Waiting for a pool connection and for every lock is bounded by the busy timeout (a deadline on
///   the lease, `lock_timeout` on the server): a busy database answers 503, never hangs.
final class PostgresBackend: StoreBackend {
    private let pool: PostgresPool
    private let startConfiguration: PostgresConnection.Configuration
    private let location: PostgresLocation
    private let busyTimeoutMilliseconds: Int
    private let logger: Logger
    /// Outbound events, written in the transaction of each change (Webhooks/), when configured.
    let webhooks: WebhookOutbox?

    private init(client: PostgresClient, startConfiguration: PostgresConnection.Configuration, location: PostgresLocation,
                 busyTimeoutMilliseconds: Int, webhooks: WebhookOutbox?, logger: Logger) {
        self.webhooks = webhooks
        self.pool = PostgresPool(client: client)
        self.startConfiguration = startConfiguration
        self.location = location
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        self.logger = logger
    }

    /// The pool: PostgresNIO's `PostgresClient`, run as a `Service`; leases wait until it runs.
    var services: [any Service] { [pool] }

    /// Prepares the pool for `location` (nothing connects yet: ``migrate(now:verify:)`` connects
    /// first, so a wrong URL, password or an unreachable server fails the start with PostgreSQL's
    /// own reason).
    static func open(_ location: PostgresLocation, maximumConnections: Int, busyTimeoutMilliseconds: Int, webhooks: WebhookOutbox? = nil, logger: Logger) throws(StorageError) -> PostgresBackend {
        let tlsConfiguration = TLSConfiguration.makeClientConfiguration()
        let connectionTLS: PostgresConnection.Configuration.TLS
        let clientTLS: PostgresClient.Configuration.TLS
        switch location.sslMode {
        case "disable":
            connectionTLS = .disable
            clientTLS = .disable
        case "require":
            do {
                connectionTLS = .require(try NIOSSLContext(configuration: tlsConfiguration))
            } catch {
                throw StorageError("setting up TLS for \(location.description)", error)
            }
            clientTLS = .require(tlsConfiguration)
        default:
            do {
                connectionTLS = .prefer(try NIOSSLContext(configuration: tlsConfiguration))
            } catch {
                throw StorageError("setting up TLS for \(location.description)", error)
            }
            clientTLS = .prefer(tlsConfiguration)
        }
        var start = PostgresConnection.Configuration(
            host: location.host, port: location.port, username: location.username, password: location.password,
            database: location.database, tls: connectionTLS)
        // The first connection is allowed at least 10 s: on a loaded machine opening one can take
        // longer than a request may wait for one (the busy timeout), and the migration needs it.
        start.options.connectTimeout = .milliseconds(Int64(max(10_000, busyTimeoutMilliseconds)))

        var configuration = PostgresClient.Configuration(
            host: location.host, port: location.port, username: location.username, password: location.password,
            database: location.database, tls: clientTLS)
        configuration.options.maximumConnections = max(1, maximumConnections)
        configuration.options.connectTimeout = .milliseconds(Int64(max(1000, busyTimeoutMilliseconds)))
        configuration.options.additionalStartupParameters = [
            ("lock_timeout", "\(max(1, busyTimeoutMilliseconds))"),
            ("application_name", "ReceiptServer"),
        ]
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        return PostgresBackend(client: client, startConfiguration: start, location: location, busyTimeoutMilliseconds: busyTimeoutMilliseconds, webhooks: webhooks, logger: logger)
    }

    // MARK: Start

    func migrate(now: Int64, verify: @escaping StoreWrite.Verify) async throws(StorageError) {
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnection.connect(configuration: startConfiguration, id: 0, logger: logger)
        } catch {
            throw StorageError("connecting to \(location.description) (is the server running, and the URL, user and password right?)", error)
        }
        let logger = self.logger
        do {
            try await connection.withTransaction(logger: logger) { connection in
                try await PostgresSchema.migrate(connection, logger: logger, now: now, verify: verify)
            }
            try? await connection.close()
        } catch {
            try? await connection.close()
            throw StorageError("upgrading the database schema", error)
        }
    }

    func closeAtStart() async {}

    /// PostgreSQL's own statistics count its WAL (`pg_current_wal_lsn()`, `pg_stat_wal`).
    func recordWrites(into metrics: ServerMetrics) {}

    // MARK: Writes

    func storeTransaction(
        _ rows: [SignedDataRow], purchase: String, claimedCustomer: String?, receivedAt: Int64, operation: String,
        afterCommit: @escaping @Sendable (StoreWrite.TransactionResult) -> Void
    ) async throws(StorageError) -> StoreWrite.TransactionResult {
        let webhooks = self.webhooks
        // Without webhooks: one statement, one round trip, no BEGIN and COMMIT
        // (PostgresOneStatementTransaction). With webhooks the outbox's rows are computed here from
        // what the transaction stored and written in the same transaction, so the write stays a
        // transaction of several statements; it is also the fallback when another transaction
        // linked the purchase while the one statement ran.
        if webhooks == nil, rows.count <= PostgresOneStatementTransaction.maximumRows {
            let stored = try await retrying { () async throws(StorageError) in
                try await withLeasedConnection(operation) { writes in
                    try await writes.storeTransactionInOneStatement(rows, purchase: purchase, claimedCustomer: claimedCustomer, receivedAt: receivedAt)
                }
            }
            if let stored {
                afterCommit(stored)
                return stored
            }
        }
        return try await storeTransactionInTransaction(rows, purchase: purchase, claimedCustomer: claimedCustomer, receivedAt: receivedAt,
                                                       operation: operation, afterCommit: afterCommit)
    }

    /// ``storeTransaction(_:purchase:claimedCustomer:receivedAt:operation:afterCommit:)`` as one
    /// transaction of several statements (``PostgresWrites``), with the outbound events when
    /// webhooks are configured.
    func storeTransactionInTransaction(
        _ rows: [SignedDataRow], purchase: String, claimedCustomer: String?, receivedAt: Int64, operation: String,
        afterCommit: @escaping @Sendable (StoreWrite.TransactionResult) -> Void
    ) async throws(StorageError) -> StoreWrite.TransactionResult {
        let webhooks = self.webhooks
        return try await write(operation, { writes in
            let result = try await writes.storeTransaction(rows, purchase: purchase, claimedCustomer: claimedCustomer, receivedAt: receivedAt)
            // Outbound events, in the same transaction (Webhooks/).
            if let webhooks, let change = result.change, let first = rows.first {
                try await writes.recordEntitlementsChange(of: change.customer, cause: .of(first), outbox: webhooks)
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
        // Without webhooks and a refund request: one statement (PostgresOneStatementNotification),
        // as storeTransaction does; else, or when another transaction linked the purchase
        // meanwhile, a transaction of several statements.
        if webhooks == nil, refundRequest == nil {
            let stored = try await retrying { () async throws(StorageError) in
                try await withLeasedConnection(operation) { writes in
                    try await writes.storeNotificationInOneStatement(row, claimedCustomer: claimedCustomer, receivedAt: receivedAt)
                }
            }
            if let stored {
                afterCommit(stored)
                return stored
            }
        }
        return try await storeNotificationInTransaction(row, claimedCustomer: claimedCustomer, refundRequest: refundRequest, receivedAt: receivedAt,
                                                        operation: operation, afterCommit: afterCommit)
    }

    /// ``storeNotification(_:claimedCustomer:refundRequest:receivedAt:operation:afterCommit:)`` as
    /// one transaction of several statements (``PostgresWrites``), with the refund request and the
    /// outbound events.
    func storeNotificationInTransaction(
        _ row: SignedDataRow, claimedCustomer: String?, refundRequest: RefundRequestRow?, receivedAt: Int64, operation: String,
        afterCommit: @escaping @Sendable (StoreWrite.NotificationResult) -> Void
    ) async throws(StorageError) -> StoreWrite.NotificationResult {
        let webhooks = self.webhooks
        return try await write(operation, { writes in
            let result = try await writes.storeNotification(row, claimedCustomer: claimedCustomer, refundRequest: refundRequest, receivedAt: receivedAt)
            // Outbound events, in the same transaction (Webhooks/).
            if let webhooks {
                if result.outcome.isNew { try await writes.recordNotificationReceived(row, customer: result.outcome.appAccountToken, outbox: webhooks) }
                if let change = result.change { try await writes.recordEntitlementsChange(of: change.customer, cause: .of(row), outbox: webhooks) }
            }
            return result
        }, afterCommit: { result in
            afterCommit(result)
            webhooks?.signal.changed()
        })
    }

    func reverify(after id: Int64, limit: Int, now: Int64, verify: @escaping StoreWrite.Verify) async throws(StorageError) -> StoreWrite.ReverificationBatch {
        let webhooks = self.webhooks
        return try await write("verifying stored signed data again (rows after id \(id))", { writes in
            let batch = try await writes.reverify(after: id, limit: limit, now: now, verify: verify)
            // Outbound events, in the same transaction (Webhooks/).
            if let webhooks {
                for customer in batch.customers.sorted() { try await writes.recordEntitlementsChange(of: customer, cause: .reverification, outbox: webhooks) }
            }
            return batch
        }, afterCommit: { _ in webhooks?.signal.changed() })
    }

    /// Runs `work` in one `READ COMMITTED` transaction on a pool connection; a deadlock or
    /// serialization failure runs it again (twice at most).
    func write<T: Sendable>(
        _ operation: String, _ work: @escaping @Sendable (PostgresWrites) async throws -> T, afterCommit: @escaping @Sendable (T) -> Void
    ) async throws(StorageError) -> T {
        let value = try await retrying { () async throws(StorageError) in
            try await withLeasedConnection(operation) { writes in
                try await writes.connection.withTransaction(logger: writes.logger) { _ in
                    try await work(writes)
                }
            }
        }
        afterCommit(value)
        return value
    }

    /// Runs `body` again after a deadlock or serialization failure (twice at most).
    private func retrying<T>(_ body: () async throws(StorageError) -> T) async throws(StorageError) -> T {
        var attempt = 0
        while true {
            attempt += 1
            do {
                return try await body()
            } catch {
                if attempt < 3, Self.isRetryable(error.underlyingError) { continue }
                throw error
            }
        }
    }

    // MARK: Reads

    func revision(of customer: String) async throws(StorageError) -> Int64 {
        try await withLeasedConnection("reading a customer's revision") { try await $0.revision(of: customer) }
    }

    func records(of customer: String) async throws(StorageError) -> (revision: Int64, records: [VerifiedRecords]) {
        try await withLeasedConnection("reading a customer's records") { reads in
            // The revision first: the records read after it include at least what it counts.
            let revision = try await reads.revision(of: customer)
            return (revision, try await reads.all(PostgresStatements.Records(customer: customer)))
        }
    }

    func signedData(forCustomer customer: String) async throws(StorageError) -> [StoredSignedData] {
        try await withLeasedConnection("reading a customer's signed data") { reads in
            try await reads.all(PostgresStatements.SignedDataOfCustomer(customer: customer)).compactMap { $0 }
        }
    }

    func count(of kind: SignedDataKind?) async throws(StorageError) -> Int {
        try await withLeasedConnection("counting signed data") { reads in
            let query: PostgresQuery = kind.map { "SELECT COUNT(*) FROM signed_data WHERE kind = \($0.rawValue)" } ?? "SELECT COUNT(*) FROM signed_data"
            for try await count in try await reads.connection.query(query, logger: reads.logger).decode(Int64.self) {
                return Int(count)
            }
            return 0
        }
    }

    func lastNotificationSignedDate() async throws(StorageError) -> Int64? {
        try await withLeasedConnection("reading the latest stored notification's signedDate") { reads in
            for try await latest in try await reads.connection.query(
                "SELECT MAX(signed_date) FROM signed_data WHERE kind = 'notification'", logger: reads.logger).decode(Int64?.self) {
                return latest
            }
            return nil
        }
    }

    func hasNotification(uuid: String) async throws(StorageError) -> Bool {
        try await withLeasedConnection("looking up notification \(uuid)") { reads in
            try await reads.first(PostgresStatements.HasNotification(uuid: uuid)) != nil
        }
    }

    /// Runs `body` on a pool connection. Waiting for the connection is bounded by the busy timeout
    /// (a saturated pool or an unreachable server answers 503); once it has one, `body` runs to its
    /// end (waits for locks are bounded by `lock_timeout`), so a write that committed is never
    /// reported as failed.
    func withLeasedConnection<T: Sendable>(_ operation: String, _ body: @escaping @Sendable (PostgresWrites) async throws -> T) async throws(StorageError) -> T {
        let milliseconds = busyTimeoutMilliseconds
        let pool = self.pool
        let logger = self.logger
        let leased = LeaseFlag()
        do {
            return try await withThrowingTaskGroup(of: LeaseOutcome<T>.self) { group in
                group.addTask {
                    await pool.waitUntilRunning()
                    return .value(try await pool.client.withConnection { connection in
                        leased.set()
                        do {
                            return try await body(PostgresWrites(connection: connection, logger: logger))
                        } catch {
                            // PostgresNIO remembers a prepared statement whose preparation failed
                            // for the connection's life (every later use fails alike, without asking
                            // the server), and preparing takes the tables' locks: a lock timeout
                            // while another session held a table would break that statement on this
                            // connection for good. A connection the server refused a statement on
                            // is closed; the pool opens a new one.
                            if Self.isServerError(error) { try? await connection.close() }
                            throw error
                        }
                    })
                }
                group.addTask {
                    try await Task.sleep(for: .milliseconds(milliseconds))
                    return .deadline
                }
                defer { group.cancelAll() }
                while let outcome = try await group.next() {
                    switch outcome {
                    case .value(let value):
                        return value
                    case .deadline:
                        if !leased.isSet { throw LockWaitTimedOut(milliseconds: milliseconds) }
                    }
                }
                throw LockWaitTimedOut(milliseconds: milliseconds)
            }
        } catch {
            throw StorageError(operation, error)
        }
    }

    /// An error the PostgreSQL server sent (not the client's or the network's), also when it failed
    /// a transaction's statement.
    private static func isServerError(_ error: any Error) -> Bool {
        var error = error
        if let transaction = error as? PostgresTransactionError, let inner = transaction.closureError ?? transaction.commitError ?? transaction.beginError {
            error = inner
        }
        return (error as? PSQLError)?.serverInfo != nil
    }

    /// A deadlock (40P01) or serialization failure (40001): the transaction may simply be run again.
    private static func isRetryable(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError, let state = error.serverInfo?[.sqlState] else { return false }
        return state == "40P01" || state == "40001"
    }
}

/// Whether an operation got its pool connection.
private final class LeaseFlag: Sendable {
    private let state = Mutex(false)
    func set() { state.withLock { $0 = true } }
    var isSet: Bool { state.withLock { $0 } }
}

/// What finished first: the work on a leased connection, or the lease deadline.
private enum LeaseOutcome<T: Sendable>: Sendable {
    case value(T)
    case deadline
}

extension StorageError {
    /// The error this one wraps, when it kept it.
    var underlyingError: any Error { cause ?? self }
}
