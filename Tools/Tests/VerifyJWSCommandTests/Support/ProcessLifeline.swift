import Foundation

/// Watchdog shells that act when this test process ends, however it ends (even killed): they read
/// a pipe only this process can write to, and nothing is ever written, so their `read` returns at
/// end of file exactly when this process is gone, with no polling.
enum ProcessLifeline {
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

    private static func runDetached(_ script: String, in directory: URL) throws {
        try ProcessRunner.startUntilThisProcessEnds(script, in: directory)
    }

    private static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
