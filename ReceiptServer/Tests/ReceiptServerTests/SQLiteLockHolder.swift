import Foundation
import Testing

/// Another process holding a SQLite database's write lock: the `sqlite3` command-line shell inside
/// `BEGIN IMMEDIATE`, until ``release()``. (A second SQLite library in this test process could not
/// stand for another process: POSIX locks are per process.) Where `sqlite3` is missing the test
/// is skipped, saying so, or fails when `RECEIPT_SERVER_REQUIRE_POSTGRES=1` (CI installs it).
final class SQLiteLockHolder: Sendable {
    static let shell = "/usr/bin/sqlite3"

    private let process: Process
    private let input: FileHandle
    private let exits: AsyncStream<Int32>

    private init(process: Process, input: FileHandle, exits: AsyncStream<Int32>) {
        self.process = process
        self.input = input
        self.exits = exits
    }

    /// Takes the write lock of the database at `path`, returning once the shell holds it.
    static func lock(_ path: String) async throws -> SQLiteLockHolder {
        guard FileManager.default.isExecutableFile(atPath: shell) else {
            let message = "\(shell) is missing (Debian's sqlite3 package): it plays the other process holding the database's lock"
            if ProcessInfo.processInfo.environment["RECEIPT_SERVER_REQUIRE_POSTGRES"] == "1" { throw TestServerError(message) }
            print("skipped: \(message)")
            try Test.cancel(Comment(rawValue: message))
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: shell)
        process.arguments = ["-batch", path]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        let (lines, linesContinuation) = AsyncStream<String>.makeStream()
        output.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty {
                handle.readabilityHandler = nil
                linesContinuation.finish()
            } else {
                linesContinuation.yield(String(decoding: data, as: UTF8.self))
            }
        }
        let (exits, exitsContinuation) = AsyncStream<Int32>.makeStream()
        process.terminationHandler = { process in
            exitsContinuation.yield(process.terminationStatus)
            exitsContinuation.finish()
        }
        try process.run()
        let holder = SQLiteLockHolder(process: process, input: input.fileHandleForWriting, exits: exits)
        do {
            try holder.send(".timeout 30000\nBEGIN IMMEDIATE;\nSELECT 'lock-held';\n")
            _ = try await within(.seconds(60), "sqlite3 taking the write lock") {
                var seen = ""
                for await text in lines {
                    seen += text
                    if seen.contains("lock-held") { return seen }
                }
                throw TestServerError("sqlite3 ended without taking the lock: \(seen)")
            }
        } catch {
            holder.kill()
            throw error
        }
        return holder
    }

    private func send(_ text: String) throws {
        try input.write(contentsOf: Data(text.utf8))
    }

    /// Rolls back and ends the shell, returning once it exited: the lock is free.
    func release() async throws {
        try send("ROLLBACK;\n.quit\n")
        try? input.close()
        let exits = self.exits
        _ = try await within(.seconds(60), "sqlite3 releasing the lock") {
            var iterator = exits.makeAsyncIterator()
            return await iterator.next() ?? -1
        }
    }

    /// Ends the shell at once (on a test's failure path).
    func kill() {
        if process.isRunning { process.terminate() }
    }
}
