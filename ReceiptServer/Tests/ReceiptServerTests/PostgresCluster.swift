import AppStoreVerificationTestSupport
import Foundation
import Logging
import PostgresNIO
import Testing

/// A throwaway PostgreSQL cluster for this test process: `initdb` in a temporary directory, the
/// server on 127.0.0.1 and a free port (its unix socket in the same directory), trust
/// authentication for the superuser `receipts`. Started once, on first use; each test gets its own
/// database in it.
///
/// PostgreSQL refuses to run as root: when the tests run as root, the cluster runs as the
/// `postgres` user (Debian's package creates it), else `nobody`, through `setpriv`. The server is a
/// ``BackgroundProcess`` (ready on its "ready to accept connections" line), killed, and the
/// directory removed, as soon as this test process ends, however it ends (normal exit, crash,
/// kill -9).
///
/// Where the binaries are missing or the server does not start, ``shared()`` throws
/// ``PostgresUnavailable`` with the reason; tests print it and skip (``TestDatabase``).
final class PostgresCluster: Sendable {
    /// `127.0.0.1`.
    let host = "127.0.0.1"
    /// The server's port.
    let port: Int
    /// The cluster's directory (data, socket, log).
    let directory: String
    /// The superuser.
    let user = "receipts"

    /// The `postgres` process (its log is its output, in English: `--lc-messages=C`).
    let server: BackgroundProcess

    private init(port: Int, directory: String, server: BackgroundProcess) {
        self.port = port
        self.directory = directory
        self.server = server
    }

    /// Started once, off the cooperative pool (it waits for processes; the pool must not).
    private static let startup = Task<Result<PostgresCluster, PostgresUnavailable>, Never> {
        do {
            return .success(try await offThePool { try start() })
        } catch let error as PostgresUnavailable {
            return .failure(error)
        } catch {
            return .failure(PostgresUnavailable(reason: "starting PostgreSQL failed: \(error)"))
        }
    }

    /// The cluster of this test process, started on first use.
    ///
    /// - Throws: ``PostgresUnavailable`` with the reason when PostgreSQL cannot run here.
    static func shared() async throws(PostgresUnavailable) -> PostgresCluster {
        try await startup.value.get()
    }

    /// A URL for `database`, as `--database` takes it.
    func url(database: String) -> String {
        "postgres://\(user)@\(host):\(port)/\(database)?sslmode=disable"
    }

    /// Creates a new, empty database and returns its name.
    func createDatabase() async throws -> String {
        let name = "receipts_\(UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: ""))"
        try await execute("CREATE DATABASE \(name)")
        return name
    }

    /// Runs one statement in the `postgres` database.
    func execute(_ sql: String, database: String = "postgres") async throws {
        try await execute([sql], database: database)
    }

    /// Runs statements one after the other on one connection to `database`.
    func execute(_ statements: [String], database: String) async throws {
        let configuration = PostgresConnection.Configuration(host: host, port: port, username: user, password: nil, database: database, tls: .disable)
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: Logger(label: "test-postgres"))
        do {
            for sql in statements {
                do {
                    try await connection.query(PostgresQuery(unsafeSQL: sql), logger: Logger(label: "test-postgres"))
                } catch {
                    throw TestServerError("PostgreSQL refused \(sql.prefix(200)): \(String(reflecting: error))")
                }
            }
        } catch {
            try? await connection.close()
            throw error
        }
        try await connection.close()
    }

    /// Opens a connection to `database` that stays open (a session holding a lock, say) until
    /// `body` returns or throws.
    func withSession<T>(database: String, _ body: (Session) async throws -> T) async throws -> T {
        let configuration = PostgresConnection.Configuration(host: host, port: port, username: user, password: nil, database: database, tls: .disable)
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 2, logger: Logger(label: "test-postgres"))
        do {
            let result = try await body(Session(connection: connection))
            try await connection.close()
            return result
        } catch {
            try? await connection.close()
            throw error
        }
    }

    /// One open connection of ``withSession(database:_:)``.
    struct Session {
        let connection: PostgresConnection

        /// Runs `sql`; when it returns, its effect (a lock taken, say) holds.
        func execute(_ sql: String) async throws {
            do {
                try await connection.query(PostgresQuery(unsafeSQL: sql), logger: Logger(label: "test-postgres"))
            } catch {
                throw TestServerError("PostgreSQL refused \(sql.prefix(200)): \(String(reflecting: error))")
            }
        }
    }

    // MARK: Starting

    private static func start() throws -> PostgresCluster {
        let environment = ProcessInfo.processInfo.environment
        guard let bin = binDirectory(environment) else {
            throw PostgresUnavailable(reason: "no PostgreSQL server binaries (initdb, postgres) in $RECEIPT_SERVER_PG_BIN or /usr/lib/postgresql/*/bin: install Debian's postgresql package (ci.sh does)")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("receipt-server-pg-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var prefix: [String] = []
        if geteuid() == 0 {
            var found: (name: String, entry: UnsafeMutablePointer<passwd>)?
            for name in ["postgres", "nobody"] {
                if let entry = getpwnam(name) {
                    found = (name, entry)
                    break
                }
            }
            guard let (account, entry) = found else {
                throw PostgresUnavailable(reason: "running as root and no postgres or nobody account to run PostgreSQL as (it refuses root)")
            }
            guard chown(directory, entry.pointee.pw_uid, entry.pointee.pw_gid) == 0 else {
                throw PostgresUnavailable(reason: "cannot hand \(directory) to \(account) (chown failed, errno \(errno))")
            }
            prefix = ["/usr/bin/setpriv", "--reuid=\(account)", "--regid=\(account)", "--init-groups", "--"]
        }
        let initdb = try ProcessRunner.run(prefix.first ?? "\(bin)/initdb",
                                           Array((prefix + ["\(bin)/initdb", "-D", "\(directory)/data", "-U", "receipts", "--auth=trust", "-E", "UTF8", "--lc-messages=C", "--no-sync"]).dropFirst()),
                                           in: URL(fileURLWithPath: "/"))
        guard initdb.status == 0 else {
            try? FileManager.default.removeItem(atPath: directory)
            throw PostgresUnavailable(reason: "initdb failed (status \(initdb.status)): \(initdb.output.suffix(600))")
        }
        // The server, killed when this process ends (its directory removed then); ready once it
        // logs that it accepts connections.
        try ProcessRunner.deleteWhenThisProcessEnds(URL(fileURLWithPath: directory))
        let port = try FreePorts.one()
        let server = try BackgroundProcess(prefix + ["\(bin)/postgres", "-D", "\(directory)/data", "-h", "127.0.0.1", "-p", "\(port)", "-k", directory,
                                                     "-c", "fsync=off", "-c", "max_connections=300", "-c", "shared_buffers=32MB"],
                                           in: URL(fileURLWithPath: "/"))
        do {
            try server.waitForLine(containing: "ready to accept connections", limit: .seconds(60))
        } catch {
            try? server.send(SIGKILL)
            throw PostgresUnavailable(reason: "the PostgreSQL server did not start on 127.0.0.1:\(port): \(error)")
        }
        return PostgresCluster(port: port, directory: directory, server: server)
    }

    private static func binDirectory(_ environment: [String: String]) -> String? {
        var candidates: [String] = []
        if let configured = environment["RECEIPT_SERVER_PG_BIN"], !configured.isEmpty { candidates.append(configured) }
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? [])
            .compactMap(Int.init).sorted(by: >)
        candidates += versions.map { "/usr/lib/postgresql/\($0)/bin" }
        return candidates.first { FileManager.default.isExecutableFile(atPath: "\($0)/initdb") && FileManager.default.isExecutableFile(atPath: "\($0)/postgres") }
    }
}

/// PostgreSQL cannot run here, and why.
struct PostgresUnavailable: Error, CustomStringConvertible {
    let reason: String
    var description: String { "PostgreSQL tests skipped: \(reason)" }
}
