import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import SQLiteNIO

/// The embedded store: one SQLite file in WAL mode, `synchronous = FULL` (a commit that returned
/// survives a crash or power loss).
///
/// - One writer connection takes the waiting writes in batches and commits each batch once
///   (``GroupCommitQueue``, run by the ``SQLiteWriter`` service); `BEGIN IMMEDIATE` waits at most
///   until the earliest deadline of the batch for a lock another process holds, and the
///   ``WriteDeadlineTimer`` service fails writes still waiting at their deadline.
/// - Reads run on their own read-only connections (WAL readers), so they never wait behind writes
///   or behind another process's write lock.
/// - Its own thread pool (one thread per connection), so a writer waiting for a lock does not take
///   a thread the readers need.
final class SQLiteBackend: StoreBackend {
    let dialect = SQLDialect.sqlite
    private let threadPool: NIOThreadPool
    private let writer: SQLiteConnection
    private let readers: ConnectionPool<SQLiteConnection>
    let queue = GroupCommitQueue()
    let busyTimeoutMilliseconds: Int

    private init(threadPool: NIOThreadPool, writer: SQLiteConnection, readers: [SQLiteConnection], busyTimeoutMilliseconds: Int) {
        self.threadPool = threadPool
        self.writer = writer
        self.readers = ConnectionPool(readers)
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
    }

    /// The writer and its deadline timer, for the application's `ServiceGroup` (the timer first, so
    /// that it stops before the writer on shutdown).
    var services: [any Service] {
        [SQLiteWriter(backend: self), WriteDeadlineTimer(queue: queue, busyTimeoutMilliseconds: busyTimeoutMilliseconds)]
    }

    /// Opens (creating if needed) the database file at `path` with `readerCount` reading connections.
    static func open(path: String, readerCount: Int, busyTimeoutMilliseconds: Int, logger: Logger) async throws(StorageError) -> SQLiteBackend {
        let readerCount = max(1, readerCount)
        let threadPool = NIOThreadPool(numberOfThreads: readerCount + 1)
        threadPool.start()
        let eventLoop = MultiThreadedEventLoopGroup.singleton.any()
        var opened: [SQLiteConnection] = []
        do {
            let writer = try await SQLiteConnection.open(storage: .file(path: path), threadPool: threadPool, logger: logger, on: eventLoop)
            opened.append(writer)
            for statement in ["PRAGMA busy_timeout = \(max(0, busyTimeoutMilliseconds))", "PRAGMA journal_mode = WAL", "PRAGMA synchronous = FULL"] {
                _ = try await writer.query(statement)
            }
            var readers: [SQLiteConnection] = []
            for _ in 0..<readerCount {
                let reader = try await SQLiteConnection.open(storage: .file(path: path), threadPool: threadPool, logger: logger, on: eventLoop)
                opened.append(reader)
                _ = try await reader.query("PRAGMA busy_timeout = \(max(0, busyTimeoutMilliseconds))")
                _ = try await reader.query("PRAGMA query_only = 1")
                readers.append(reader)
            }
            return SQLiteBackend(threadPool: threadPool, writer: writer, readers: readers, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        } catch {
            for connection in opened { try? await connection.close() }
            try? await threadPool.shutdownGracefully()
            throw StorageError("opening the database file \(path)", error)
        }
    }

    func write<T: Sendable>(
        _ operation: String, _ work: @escaping @Sendable (any SQLSession) async throws -> T,
        afterCommit: @escaping @Sendable (T) -> Void
    ) async throws(StorageError) -> T {
        let deadline = ContinuousClock.now + .milliseconds(busyTimeoutMilliseconds)
        do {
            return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                queue.enqueue(GroupCommitQueue.Job(
                    deadline: deadline, operation: operation,
                    run: { session in
                        let value = try await work(session)
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

    func read<T: Sendable>(_ operation: String, _ work: @escaping @Sendable (any SQLSession) async throws -> T) async throws(StorageError) -> T {
        do {
            return try await readers.withConnection { connection in
                try await work(SQLiteSession(connection: connection))
            }
        } catch {
            throw StorageError(operation, error)
        }
    }

    func writeAtStart<T: Sendable>(_ operation: String, _ work: @escaping @Sendable (any SQLSession) async throws -> T) async throws(StorageError) -> T {
        let session = SQLiteSession(connection: writer)
        do {
            _ = try await session.query("BEGIN IMMEDIATE")
            do {
                let value = try await work(session)
                _ = try await session.query("COMMIT")
                return value
            } catch {
                _ = try? await session.query("ROLLBACK")
                throw error
            }
        } catch {
            throw StorageError(operation, error)
        }
    }

    func closeAtStart() async {
        queue.close()
        try? await closeConnections()
    }

    /// Closes every connection and the thread pool: the writer's last act (``SQLiteWriter``).
    func closeConnections() async throws(StorageError) {
        var failure: (any Error)?
        for connection in [writer] + readers.all {
            do { try await connection.close() } catch { failure = failure ?? error }
        }
        do { try await threadPool.shutdownGracefully() } catch { failure = failure ?? error }
        if let failure { throw StorageError("closing the database", failure) }
    }

    /// Runs one batch in one transaction; returns the busy timeout the connection is left with.
    func commit(_ batch: [GroupCommitQueue.Job], busyTimeout current: Int) async -> Int {
        let session = SQLiteSession(connection: writer)
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
        var busyTimeout = current
        do {
            if wait != current {
                _ = try await session.query("PRAGMA busy_timeout = \(wait)")
                busyTimeout = wait
            }
            _ = try await session.query("BEGIN IMMEDIATE")
        } catch {
            for job in live { job.fail(StorageError("\(job.operation) (starting the write)", error)) }
            return busyTimeout
        }
        var deliveries: [@Sendable () -> Void] = []
        var failures: [Int: any Error] = [:]
        do {
            for (index, job) in live.enumerated() {
                if live.count == 1 {
                    do { deliveries.append(try await job.run(session)) } catch { failures[index] = error }
                    continue
                }
                _ = try await session.query("SAVEPOINT item")
                do {
                    deliveries.append(try await job.run(session))
                    _ = try await session.query("RELEASE item")
                } catch {
                    failures[index] = error
                    _ = try await session.query("ROLLBACK TO item")
                    _ = try await session.query("RELEASE item")
                }
            }
            _ = try await session.query(failures.count == live.count ? "ROLLBACK" : "COMMIT")
        } catch {
            _ = try? await session.query("ROLLBACK")
            for (index, job) in live.enumerated() {
                job.fail(StorageError(job.operation, failures[index] ?? error))
            }
            return busyTimeout
        }
        for delivery in deliveries { delivery() }
        for (index, error) in failures.sorted(by: { $0.key < $1.key }) {
            let job = live[index]
            job.fail(error as? StorageError ?? StorageError(job.operation, error))
        }
        return busyTimeout
    }
}

/// SQL on one SQLite connection.
struct SQLiteSession: SQLSession {
    let connection: SQLiteConnection

    func query(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
        let data: [SQLiteData] = binds.map { value in
            switch value {
            case .text(let text): .text(text)
            case .integer(let integer): .integer(SQLiteInt64(integer))
            case .blob(let bytes): .blob(ByteBuffer(bytes: bytes))
            case .null: .null
            }
        }
        return try await connection.query(sql, data).map { row in
            var values: [String: SQLValue] = [:]
            for column in row.columns {
                switch column.data {
                case .text(let text): values[column.name] = .text(text)
                case .integer(let integer): values[column.name] = .integer(Int64(integer))
                case .float(let double): values[column.name] = .integer(Int64(double))
                case .blob(let buffer): values[column.name] = .blob(Array(buffer.readableBytesView))
                case .null: values[column.name] = .null
                }
            }
            return SQLRow(values: values)
        }
    }
}
