import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import Testing

/// A throwaway PostgreSQL cluster for this test process: `initdb` in a temporary directory, the
/// server on 127.0.0.1 and a free port (its unix socket in the same directory), trust
/// authentication for the superuser `receipts`. Started once, on first use; each test gets its own
/// database in it.
///
/// PostgreSQL refuses to run as root: when the tests run as root, the cluster runs as the
/// `postgres` user (Debian's package creates it), else `nobody`, through `setpriv`. A watchdog
/// shell stops the server and removes the directory as soon as this test process ends, however it
/// ends (normal exit, crash, kill -9).
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

    private init(port: Int, directory: String) {
        self.port = port
        self.directory = directory
    }

    /// Started once, on a Dispatch thread (it waits for processes; the cooperative pool must not).
    private static let startup = Task<Result<PostgresCluster, PostgresUnavailable>, Never> {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                do {
                    continuation.resume(returning: .success(try start()))
                } catch let error as PostgresUnavailable {
                    continuation.resume(returning: .failure(error))
                } catch {
                    continuation.resume(returning: .failure(PostgresUnavailable(reason: "starting PostgreSQL failed: \(error)")))
                }
            }
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
        let initdb = try run(prefix + ["\(bin)/initdb", "-D", "\(directory)/data", "-U", "receipts", "--auth=trust", "-E", "UTF8", "--no-sync"])
        guard initdb.status == 0 else {
            try? FileManager.default.removeItem(atPath: directory)
            throw PostgresUnavailable(reason: "initdb failed (status \(initdb.status)): \(initdb.output.suffix(600))")
        }
        let port = try freePort()
        // The watchdog: starts the server, waits while this process lives, then stops the server
        // (fast shutdown) and removes the directory.
        let server = (prefix + ["\(bin)/postgres", "-D", "\(directory)/data", "-h", "127.0.0.1", "-p", "\(port)", "-k", directory,
                                "-c", "fsync=off", "-c", "max_connections=300", "-c", "shared_buffers=32MB"]).map(shellQuoted).joined(separator: " ")
        let script = """
            \(server) > \(shellQuoted("\(directory)/server.log")) 2>&1 &
            server=$!
            while kill -0 \(getpid()) 2>/dev/null && kill -0 $server 2>/dev/null; do sleep 0.3; done
            kill -INT $server 2>/dev/null
            wait $server
            rm -rf \(shellQuoted(directory))
            """
        let watchdog = Process()
        watchdog.executableURL = URL(fileURLWithPath: "/bin/sh")
        watchdog.arguments = ["-c", script]
        watchdog.standardInput = FileHandle.nullDevice
        watchdog.standardOutput = FileHandle.nullDevice
        watchdog.standardError = FileHandle.nullDevice
        try watchdog.run()
        let cluster = PostgresCluster(port: port, directory: directory)
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            let ready = try run(["\(bin)/pg_isready", "-h", "127.0.0.1", "-p", "\(port)", "-U", "receipts", "-d", "postgres"])
            if ready.status == 0 { return cluster }
            guard watchdog.isRunning else { break }
            Thread.sleep(forTimeInterval: 0.2)
        }
        let log = (try? String(contentsOfFile: "\(directory)/server.log", encoding: .utf8)) ?? "(no log)"
        watchdog.terminate()
        throw PostgresUnavailable(reason: "the PostgreSQL server did not accept connections on 127.0.0.1:\(port) within 30 s; its log: \(log.suffix(800))")
    }

    private static func binDirectory(_ environment: [String: String]) -> String? {
        var candidates: [String] = []
        if let configured = environment["RECEIPT_SERVER_PG_BIN"], !configured.isEmpty { candidates.append(configured) }
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? [])
            .compactMap(Int.init).sorted(by: >)
        candidates += versions.map { "/usr/lib/postgresql/\($0)/bin" }
        return candidates.first { FileManager.default.isExecutableFile(atPath: "\($0)/initdb") && FileManager.default.isExecutableFile(atPath: "\($0)/postgres") }
    }

    private static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        process.currentDirectoryURL = URL(fileURLWithPath: "/")
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    private static func freePort() throws -> Int {
        let socket = try ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.1", port: 0).wait()
        let port = socket.localAddress?.port ?? 0
        try socket.close().wait()
        guard port > 0 else { throw PostgresUnavailable(reason: "no free port on 127.0.0.1") }
        return port
    }

    private static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

/// PostgreSQL cannot run here, and why.
struct PostgresUnavailable: Error, CustomStringConvertible {
    let reason: String
    var description: String { "PostgreSQL tests skipped: \(reason)" }
}
