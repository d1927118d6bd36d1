import Foundation

/// A server the tests start in the background (an `openssl ocsp` responder, a service binary, a
/// database server): it is killed when this test process ends, however it ends, and its output
/// (standard output and standard error, merged) is read from a pipe as it comes, so a test waits
/// for the line that says it is ready instead of probing it. A test may also send it a signal and
/// wait for its exit status.
///
/// The command runs under a watchdog shell with a lifeline reader on ``ProcessRunner``'s lifeline:
/// when this process is gone the `read` returns and the command is killed with SIGKILL
/// (`openssl ocsp` ignores SIGTERM); where `setpriv` exists the kernel also kills the command if
/// the watchdog itself is killed. The watchdog tells this process the command's id and, when it
/// ends, its exit status, on a pipe of their own. (The reader outlives a command that ended on
/// its own until this process ends.)
public final class BackgroundProcess: @unchecked Sendable {
    private let lock = NSLock()
    private var received = Data()
    private var control = ""
    private var ended = false, controlEnded = false
    private var observers: [@Sendable () -> Void] = []
    private let arrived = DispatchSemaphore(value: 0)
    private let outputPipe = Pipe.closingOnExec()
    private let controlPipe = Pipe.closingOnExec()
    private let description: String

    /// Starts `command` (a program and its arguments, looked up on `PATH`) in `directory`, with
    /// `environment` when given (else this process's).
    public init(_ command: [String], in directory: URL, environment: [String: String]? = nil) throws {
        _ = ProcessRunner.ignoresSIGPIPE
        description = command.joined(separator: " ")
        let pdeath = FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") ? ["setpriv", "--pdeathsig", "KILL"] : []
        let line = (pdeath + command).map(ProcessRunner.shellQuoted).joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // The command runs in the foreground of the watchdog (whose wait then needs no SIGCHLD: a
        // child of a Swift thread may inherit it blocked, and the `wait` builtin would never
        // return). A shell in between tells its process id (the command's, after `exec`) and
        // starts the lifeline reader that kills it.
        let start = #"echo "pid $$" >&4; (read _ <&3; kill -KILL $$) >/dev/null 2>&1 4>&- & exec "$@" 3<&- 4>&-"#
        process.arguments = ["-c", """
            exec 3<&0
            sh -c \(ProcessRunner.shellQuoted(start)) sh \(line) 4>&2 2>&1
            echo "exit $?" >&2
            """]
        process.currentDirectoryURL = directory
        if let environment { process.environment = environment }
        process.standardInput = ProcessRunner.lifeline.fileHandleForReading
        process.standardOutput = outputPipe
        process.standardError = controlPipe
        outputPipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            if data.isEmpty { handle.readabilityHandler = nil }
            guard let self else { return }
            let observers = lock.withLock {
                if data.isEmpty { ended = true } else { received.append(data) }
                return self.observers
            }
            arrived.signal()
            observers.forEach { $0() }
        }
        controlPipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            if data.isEmpty { handle.readabilityHandler = nil }
            guard let self else { return }
            lock.withLock { if data.isEmpty { controlEnded = true } else { control += String(decoding: data, as: UTF8.self) } }
            arrived.signal()
        }
        try process.run()
    }

    /// Everything the command has written so far, as text.
    public var output: String { lock.withLock { String(decoding: received, as: UTF8.self) } }

    /// Calls `observer` each time output arrives and when it ends (on the pipe's reading thread),
    /// for a test that waits on the output of several processes at once: it checks its condition
    /// over their ``output`` at each call instead of polling.
    public func whenOutputArrives(_ observer: @escaping @Sendable () -> Void) {
        lock.withLock { observers.append(observer) }
    }

    /// Waits until a line of the output contains `marker` (the server's "listening" line). Throws
    /// when the output ends first, or when `limit` passes (a bound for a server that never starts
    /// only: the wait ends as soon as the line arrives).
    public func waitForLine(containing marker: String, limit: Duration = .seconds(120)) throws {
        try waitFor("a line with \"\(marker)\"", limit: limit) { text, _ in
            text.split(separator: "\n").contains(where: { $0.contains(marker) }) ? () : nil
        }
    }

    /// Sends `signal` (`SIGTERM`, `SIGKILL`...) to the command; nothing when it has already ended.
    public func send(_ signal: Int32) throws {
        let pid: Int32 = try waitFor("its process id", limit: .seconds(120)) { _, control in
            Self.value(after: "pid ", in: control)
        }
        if exitStatus == nil { _ = kill(pid, signal) }
    }

    /// The command's exit status once it has ended (128 + the signal's number when a signal ended
    /// it, as the shell reports it), `nil` while it runs.
    public var exitStatus: Int32? { lock.withLock { Self.value(after: "exit ", in: control) } }

    /// Waits until the command has ended and returns its exit status (see ``exitStatus``). Throws
    /// when `limit` passes first (a bound for a command that never ends only).
    public func waitForExit(limit: Duration = .seconds(120)) throws -> Int32 {
        try waitFor("its exit", limit: limit) { _, control in Self.value(after: "exit ", in: control) }
    }

    /// Waits until `found` returns a value for the output and the watchdog's reports; throws once
    /// the watchdog has ended (both pipes closed) without it.
    private func waitFor<Value>(_ what: String, limit: Duration, _ found: (String, String) -> Value?) throws -> Value {
        let deadline = DispatchTime.now() + Double(limit.components.seconds)
        while true {
            let (text, control, ended) = lock.withLock {
                (String(decoding: received, as: UTF8.self), self.control, self.ended && controlEnded)
            }
            if let value = found(text, control) { return value }
            if ended || arrived.wait(timeout: deadline) == .timedOut {
                throw FixtureError("\(description) never showed \(what)\(ended ? " (its output ended)" : ""): \(text)")
            }
        }
    }

    /// The number on the watchdog's line that starts with `prefix`.
    private static func value(after prefix: String, in control: String) -> Int32? {
        control.split(separator: "\n").lazy.compactMap { $0.hasPrefix(prefix) ? Int32($0.dropFirst(prefix.count)) : nil }.first
    }
}
