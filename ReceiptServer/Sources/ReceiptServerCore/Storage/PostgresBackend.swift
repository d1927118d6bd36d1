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
    let dialect = SQLDialect.postgres
    private let client: PostgresClient
    private let startConfiguration: PostgresConnection.Configuration
    private let location: PostgresLocation
    private let busyTimeoutMilliseconds: Int
    private let logger: Logger

    private init(client: PostgresClient, startConfiguration: PostgresConnection.Configuration, location: PostgresLocation,
                 busyTimeoutMilliseconds: Int, logger: Logger) {
        self.client = client
        self.startConfiguration = startConfiguration
        self.location = location
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        self.logger = logger
    }

    /// The pool: PostgresNIO's `PostgresClient` is itself a `Service`; leases wait until it runs.
    var services: [any Service] { [client] }

    /// Prepares the pool for `location` (nothing connects yet: ``writeAtStart(_:_:)`` connects
    /// first, so a wrong URL, password or an unreachable server fails the start with PostgreSQL's
    /// own reason).
    static func open(_ location: PostgresLocation, maximumConnections: Int, busyTimeoutMilliseconds: Int, logger: Logger) throws(StorageError) -> PostgresBackend {
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
        return PostgresBackend(client: client, startConfiguration: start, location: location, busyTimeoutMilliseconds: busyTimeoutMilliseconds, logger: logger)
    }

    func writeAtStart<T: Sendable>(_ operation: String, _ work: @escaping @Sendable (any SQLSession) async throws -> T) async throws(StorageError) -> T {
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnection.connect(configuration: startConfiguration, id: 0, logger: logger)
        } catch {
            throw StorageError("connecting to \(location.description) (is the server running, and the URL, user and password right?)", error)
        }
        let logger = self.logger
        do {
            let value = try await connection.withTransaction(logger: logger) { connection in
                try await work(PostgresSession(connection: connection, logger: logger))
            }
            try? await connection.close()
            return value
        } catch {
            try? await connection.close()
            throw StorageError(operation, error)
        }
    }

    func closeAtStart() async {}

    func write<T: Sendable>(
        _ operation: String, _ work: @escaping @Sendable (any SQLSession) async throws -> T,
        afterCommit: @escaping @Sendable (T) -> Void
    ) async throws(StorageError) -> T {
        var attempt = 0
        while true {
            attempt += 1
            do {
                let value = try await withLeasedConnection(operation) { session in
                    _ = try await session.query("BEGIN")
                    do {
                        let value = try await work(session)
                        _ = try await session.query("COMMIT")
                        return value
                    } catch {
                        _ = try? await session.query("ROLLBACK")
                        throw error
                    }
                }
                afterCommit(value)
                return value
            } catch {
                if attempt < 3, Self.isRetryable(error.underlyingError) { continue }
                throw error
            }
        }
    }

    func read<T: Sendable>(_ operation: String, _ work: @escaping @Sendable (any SQLSession) async throws -> T) async throws(StorageError) -> T {
        try await withLeasedConnection(operation, work)
    }

    /// Runs `body` on a pool connection. Waiting for the connection is bounded by the busy timeout
    /// (a saturated pool or an unreachable server answers 503); once it has one, `body` runs to its
    /// end (waits for locks are bounded by `lock_timeout`), so a write that committed is never
    /// reported as failed.
    private func withLeasedConnection<T: Sendable>(_ operation: String, leaseMilliseconds: Int? = nil,
                                                   _ body: @escaping @Sendable (any SQLSession) async throws -> T) async throws(StorageError) -> T {
        let milliseconds = leaseMilliseconds ?? busyTimeoutMilliseconds
        let client = self.client
        let logger = self.logger
        let leased = LeaseFlag()
        do {
            return try await withThrowingTaskGroup(of: LeaseOutcome<T>.self) { group in
                group.addTask {
                    .value(try await client.withConnection { connection in
                        leased.set()
                        return try await body(PostgresSession(connection: connection, logger: logger))
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

/// SQL on one PostgreSQL connection; `?` placeholders become `$1`, `$2`, ...
struct PostgresSession: SQLSession {
    let connection: PostgresConnection
    let logger: Logger

    func query(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
        var text = ""
        var number = 0
        for character in sql {
            if character == "?" {
                number += 1
                text += "$\(number)"
            } else {
                text.append(character)
            }
        }
        var bindings = PostgresBindings(capacity: binds.count)
        for value in binds {
            switch value {
            case .text(let string): bindings.append(string)
            case .integer(let integer): bindings.append(integer)
            case .blob(let bytes): bindings.append(ByteBuffer(bytes: bytes))
            case .null: bindings.appendNull()
            }
        }
        var rows: [SQLRow] = []
        for try await row in try await connection.query(PostgresQuery(unsafeSQL: text, binds: bindings), logger: logger) {
            var values: [String: SQLValue] = [:]
            for cell in row {
                guard let bytes = cell.bytes else {
                    values[cell.columnName] = .null
                    continue
                }
                switch cell.dataType {
                case .int2, .int4, .int8:
                    values[cell.columnName] = .integer(try cell.decode(Int64.self))
                case .bytea:
                    values[cell.columnName] = .blob(Array(bytes.readableBytesView))
                case .bool:
                    values[cell.columnName] = .integer(try cell.decode(Bool.self) ? 1 : 0)
                default:
                    values[cell.columnName] = (try? cell.decode(String.self)).map { SQLValue.text($0) } ?? .null
                }
            }
            rows.append(SQLRow(values: values))
        }
        return rows
    }
}
