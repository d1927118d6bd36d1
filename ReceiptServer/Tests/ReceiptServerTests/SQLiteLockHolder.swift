import AppStoreVerificationTestSupport
import Foundation
import Testing

/// Another process holding a SQLite database's write lock: the `sqlite3` command-line shell inside
/// `BEGIN IMMEDIATE`, until ``release()``. (A second SQLite library in this test process could not
/// stand for another process: POSIX locks are per process.) Where `sqlite3` is missing the test
/// is skipped, saying so, or fails when `RECEIPT_SERVER_REQUIRE_POSTGRES=1` (CI installs it).
final class SQLiteLockHolder: Sendable {
    static let shell = "/usr/bin/sqlite3"

    private let shell: ProcessRunner.Interactive

    private init(shell: ProcessRunner.Interactive) {
        self.shell = shell
    }

    /// Takes the write lock of the database at `path`, returning once the shell holds it (once it
    /// printed the line selected after `BEGIN IMMEDIATE`).
    static func lock(_ path: String) async throws -> SQLiteLockHolder {
        guard FileManager.default.isExecutableFile(atPath: shell) else {
            let message = "\(shell) is missing (Debian's sqlite3 package): it plays the other process holding the database's lock"
            if ProcessInfo.processInfo.environment["RECEIPT_SERVER_REQUIRE_POSTGRES"] == "1" { throw TestServerError(message) }
            print("skipped: \(message)")
            try Test.cancel(Comment(rawValue: message))
        }
        let holder = SQLiteLockHolder(shell: try ProcessRunner.Interactive(URL(fileURLWithPath: shell), ["-batch", path]))
        do {
            try holder.shell.write(".timeout 30000\nBEGIN IMMEDIATE;\nSELECT 'lock-held';\n")
            let shell = holder.shell
            let lines = try await offThePool { shell.lines(1, limit: .seconds(60)) }
            guard lines == ["lock-held"] else { throw TestServerError("sqlite3 ended without taking the lock: \(lines ?? [])") }
        } catch {
            holder.kill()
            throw error
        }
        return holder
    }

    /// Rolls back and ends the shell, returning once it exited: the lock is free.
    func release() async throws {
        try shell.write("ROLLBACK;\n.quit\n")
        let shell = self.shell
        _ = try await offThePool { shell.finish() }
    }

    /// Ends the shell without waiting (on a test's failure path): its input closed, an open
    /// transaction rolls back.
    func kill() {
        let shell = self.shell
        DispatchQueue.global().async { _ = shell.finish() }
    }
}
