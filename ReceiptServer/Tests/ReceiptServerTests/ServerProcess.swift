import AsyncHTTPClient
import Foundation
import NIOCore
import NIOPosix
import Testing

/// The built `ReceiptServer` executable running as its own process on 127.0.0.1, for tests that
/// need several servers or kill one. Stopped (SIGTERM, then SIGKILL) by ``stop()``; a test that
/// starts one stops it on every path, and a watchdog shell kills it if the test process dies first.
final class ServerProcess: Sendable {
    let process: Process
    let port: Int
    let output: URL

    private init(process: Process, port: Int, output: URL) {
        self.process = process
        self.port = port
        self.output = output
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
        let package = TestData.repositoryRoot.appendingPathComponent("ReceiptServer/.build")
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

    /// Starts the server on `database` and waits until it answers. It runs with `accessToken` as
    /// RECEIPT_SERVER_ACCESS_TOKEN (none: give `--allow-unauthenticated` in `arguments`).
    static func start(executable: URL, database: String, roots: [URL], arguments: [String] = [],
                      accessToken: String? = TestServer.backendToken, environment extra: [String: String] = [:],
                      logLevel: String = "warning", client: HTTPClient) async throws -> ServerProcess {
        let port = try freePort()
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("receipt-server-\(port)-\(UUID().uuidString.prefix(8)).log")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let handle = try FileHandle(forWritingTo: output)
        let process = Process()
        process.executableURL = executable
        process.arguments = ["--host", "127.0.0.1", "--port", "\(port)", "--database", database, "--bundle-id", "com.example.app",
                             "--environment", "Sandbox"] + roots.flatMap { ["--root", $0.path] } + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["LOG_LEVEL"] = logLevel
        environment["RECEIPT_SERVER_ACCESS_TOKEN"] = accessToken
        environment["RECEIPT_SERVER_ALLOW_UNAUTHENTICATED"] = nil
        environment.merge(extra) { $1 }
        process.environment = environment
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try? handle.close()
        // If this test process dies first (a crash, a time limit), a watchdog kills the server.
        let watchdog = Process()
        watchdog.executableURL = URL(fileURLWithPath: "/bin/sh")
        watchdog.arguments = ["-c", "while kill -0 \(getpid()) 2>/dev/null && kill -0 \(process.processIdentifier) 2>/dev/null; do sleep 0.5; done; kill -9 \(process.processIdentifier) 2>/dev/null"]
        watchdog.standardInput = FileHandle.nullDevice
        watchdog.standardOutput = FileHandle.nullDevice
        watchdog.standardError = FileHandle.nullDevice
        try? watchdog.run()
        let server = ServerProcess(process: process, port: port, output: output)
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            guard process.isRunning else {
                throw TestServerError("ReceiptServer exited with status \(process.terminationStatus) before answering: \(server.log.suffix(1500))")
            }
            var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/health")
            request.method = .GET
            if let response = try? await client.execute(request, timeout: .seconds(2)), response.status.code == 200 {
                _ = try? await response.body.collect(upTo: 1 << 20)
                return server
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        server.kill()
        throw TestServerError("ReceiptServer did not answer on port \(port) within 60 s: \(server.log.suffix(1500))")
    }

    /// What the process printed.
    var log: String { (try? String(contentsOf: output, encoding: .utf8)) ?? "" }

    /// kill -9.
    func kill() {
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// SIGTERM, then SIGKILL after 30 s; removes the log unless told not to.
    func stop(removingLog: Bool = true) async {
        if process.isRunning {
            process.terminate()
            let deadline = Date().addingTimeInterval(30)
            while process.isRunning, Date() < deadline {
                try? await Task.sleep(for: .milliseconds(50))
            }
        }
        kill()
        if removingLog { removeLog() }
    }

    /// Removes what the process printed.
    func removeLog() {
        try? FileManager.default.removeItem(at: output)
    }

    /// Runs the executable to its end (at most a minute; killed after that) with `environment`
    /// added to this process's (less any access settings), and returns its status and output.
    static func runToExit(_ executable: URL, arguments: [String], environment extra: [String: String]) async throws -> (status: Int32, output: String) {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("receipt-server-run-\(UUID().uuidString.prefix(8)).log")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: output) }
        let handle = try FileHandle(forWritingTo: output)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["RECEIPT_SERVER_ACCESS_TOKEN"] = nil
        environment["RECEIPT_SERVER_ALLOW_UNAUTHENTICATED"] = nil
        environment.merge(extra) { $1 }
        process.environment = environment
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        let (exits, exited) = AsyncStream<Int32>.makeStream()
        process.terminationHandler = { process in
            exited.yield(process.terminationStatus)
            exited.finish()
        }
        try process.run()
        try? handle.close()
        let status: Int32
        do {
            status = try await within(.seconds(60), "ReceiptServer \(arguments.joined(separator: " ")) exiting") {
                var iterator = exits.makeAsyncIterator()
                return await iterator.next() ?? -1
            }
        } catch {
            if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            throw error
        }
        return (status, (try? String(contentsOf: output, encoding: .utf8)) ?? "")
    }

    static func freePort() throws -> Int {
        let socket = try ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.1", port: 0).wait()
        let port = socket.localAddress?.port ?? 0
        try socket.close().wait()
        guard port > 0 else { throw TestServerError("no free port on 127.0.0.1") }
        return port
    }
}
