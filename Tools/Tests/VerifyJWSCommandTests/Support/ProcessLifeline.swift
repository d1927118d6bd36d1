import Foundation

/// Watchdog shells that act when this test process ends, however it ends (even killed): they read
/// a pipe only this process can write to, and nothing is ever written, so their `read` returns at
/// end of file exactly when this process is gone, with no polling.
enum ProcessLifeline {
    /// The watchdogs' standard input. Only this process holds the write end: Foundation's `Process`
    /// passes on standard input, output and error alone, so no child inherits it.
    private static let lifeline = Pipe()

    /// Deletes `directory` once this process has ended (the test PKIs hold private keys, which must
    /// not stay in the temporary directory).
    static func deleteWhenThisProcessEnds(_ directory: URL) throws {
        try runDetached("read _; rm -rf -- \(quoted(directory.path))", in: URL(fileURLWithPath: "/"))
    }

    /// Runs `command` (a shell command line) in the background in `directory`, its output in
    /// `log`, and kills it when this process ends. The command is killed with SIGKILL (`openssl
    /// ocsp` ignores SIGTERM), and setpriv makes the kernel kill it too if the watchdog itself is
    /// killed.
    static func startKilledWhenThisProcessEnds(_ command: [String], in directory: URL, log: String) throws {
        let pdeath = FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") ? ["setpriv", "--pdeathsig", "KILL"] : []
        let line = (pdeath + command).map(quoted).joined(separator: " ")
        try runDetached("\(line) >\(quoted(log)) 2>&1 & child=$!; trap 'kill -KILL $child 2>/dev/null' EXIT HUP INT TERM; read _", in: directory)
    }

    /// Starts `/bin/sh -c script` in `directory`, reading the lifeline, detached from this
    /// process's output (`swift test` waits for its pipes to close: a child holding them would keep
    /// the run alive).
    private static func runDetached(_ script: String, in directory: URL) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        process.currentDirectoryURL = directory
        process.standardInput = lifeline.fileHandleForReading
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    private static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
