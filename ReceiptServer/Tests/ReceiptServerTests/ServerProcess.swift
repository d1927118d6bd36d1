import AppStoreVerificationTestSupport
import Foundation
import Testing

/// The built `ReceiptServer` executable running as its own process on 127.0.0.1, for tests that
/// need several servers or kill one: a ``BackgroundProcess``, ready once it logs that it listens,
/// killed when the test process ends. Stopped (SIGTERM, then SIGKILL) by ``stop()``; a test that
/// starts one stops it on every path.
final class ServerProcess: Sendable {
    let process: BackgroundProcess
    let port: Int

    private init(process: BackgroundProcess, port: Int) {
        self.process = process
        self.port = port
    }

    /// The `ReceiptServer` executable: `$RECEIPT_SERVER_EXECUTABLE`, else beside the test bundle, else
    /// in `.build/debug` or `.build/release` of the package; `nil` when none is built.
    static func executable() -> URL? {
        let environment = ProcessInfo.processInfo.environment
        var candidates: [URL] = []
        if let configured = environment["RECEIPT_SERVER_EXECUTABLE"], !configured.isEmpty {
            candidates.append(URL(fileURLWithPath: configured))
        }
        var bundle = URL(fileURLWithPath: CommandLine.arguments.first ?? "")
        while !bundle.path.isEmpty, bundle.path != "/", !bundle.lastPathComponent.hasSuffix(".xctest") {
            bundle.deleteLastPathComponent()
        }
        if bundle.lastPathComponent.hasSuffix(".xctest") {
            candidates.append(bundle.deletingLastPathComponent().appendingPathComponent("ReceiptServer"))
        }
        let package = TestPaths.repositoryRoot.appendingPathComponent("ReceiptServer/.build")
        candidates.append(package.appendingPathComponent("debug/ReceiptServer"))
        candidates.append(package.appendingPathComponent("release/ReceiptServer"))
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// The executable, or a skip that says how to build it (a failure when
    /// `RECEIPT_SERVER_REQUIRE_POSTGRES=1`, as in CI, which builds it).
    static func requireExecutable() throws -> URL {
        guard let executable = executable() else {
            let message = "ReceiptServer executable not found (beside the test bundle, in .build/debug or .build/release, or $RECEIPT_SERVER_EXECUTABLE): run `swift build` in ReceiptServer first"
            if ProcessInfo.processInfo.environment["RECEIPT_SERVER_REQUIRE_POSTGRES"] == "1" { throw TestServerError(message) }
            print("skipped: \(message)")
            try Test.cancel(Comment(rawValue: message))
        }
        return executable
    }

    /// This process's environment with `extra` added, less the access settings a test gives itself.
    private static func environment(_ extra: [String: String]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["RECEIPT_SERVER_ACCESS_TOKEN"] = nil
        environment["RECEIPT_SERVER_ALLOW_UNAUTHENTICATED"] = nil
        environment.merge(extra) { $1 }
        return environment
    }

    /// Starts the server on `database` and returns once it logs that it listens (at `logLevel`
    /// `info` or finer; the line is logged at `info`). It runs with `accessToken` as
    /// RECEIPT_SERVER_ACCESS_TOKEN (none: give `--allow-unauthenticated` in `arguments`).
    static func start(executable: URL, database: String, roots: [URL], arguments: [String] = [],
                      accessToken: String? = TestServer.backendToken, environment extra: [String: String] = [:],
                      logLevel: String = "info") async throws -> ServerProcess {
        let port = try FreePorts.one()
        var environment = environment(extra)
        environment["LOG_LEVEL"] = logLevel
        environment["RECEIPT_SERVER_ACCESS_TOKEN"] = accessToken
        let command = [executable.path, "--host", "127.0.0.1", "--port", "\(port)", "--database", database, "--bundle-id", "com.example.app",
                       "--environment", "Sandbox"] + roots.flatMap { ["--root", $0.path] } + arguments
        let process = try BackgroundProcess(command, in: FileManager.default.temporaryDirectory, environment: environment)
        let server = ServerProcess(process: process, port: port)
        do {
            try await offThePool { try process.waitForLine(containing: "ReceiptServer listening", limit: .seconds(60)) }
        } catch {
            await server.kill()
            throw error
        }
        return server
    }

    /// What the process printed.
    var log: String { process.output }

    /// How many lines of the output contain `marker`.
    func linesLogged(containing marker: String) -> Int {
        log.split(separator: "\n").count { $0.contains(marker) }
    }

    /// Returns once `condition` holds over what `servers` logged, checking it now and as each of
    /// them writes output; fails after `limit` (a bound for a broken server only).
    static func waitUntil(_ servers: [ServerProcess], _ what: String, limit: Duration = .seconds(60),
                          _ condition: @escaping @Sendable () -> Bool) async throws {
        let changes = ChangeSignal()
        for server in servers { server.process.whenOutputArrives { changes.changed() } }
        try await within(limit, what) { await changes.waitUntil(condition) }
    }

    /// kill -9, returning once it has exited.
    func kill() async {
        let process = self.process
        _ = try? await offThePool {
            try process.send(SIGKILL)
            return try process.waitForExit()
        }
    }

    /// SIGTERM, then SIGKILL if it has not exited after 30 s: its exit status (see
    /// ``BackgroundProcess/exitStatus``).
    @discardableResult
    func stop() async -> Int32? {
        let process = self.process
        let status = try? await offThePool {
            try process.send(SIGTERM)
            return try process.waitForExit(limit: .seconds(30))
        }
        if status == nil { await kill() }
        return status ?? process.exitStatus
    }

    /// Runs the executable to its end (at most a minute) with `environment` added to this
    /// process's (less any access settings), and returns its status and output.
    static func runToExit(_ executable: URL, arguments: [String], environment extra: [String: String]) async throws -> (status: Int32, output: String) {
        let result = try await within(.seconds(60), "ReceiptServer \(arguments.joined(separator: " ")) exiting") {
            try await ProcessRunner.run(executable, arguments, environment: environment(extra))
        }
        return (result.status, result.output)
    }
}
