import Foundation

/// A server the tests start in the background (an `openssl ocsp` responder, a service binary): it
/// is killed when this test process ends, however it ends, and its output (standard output and
/// standard error, merged) is read from a pipe as it comes, so a test waits for the line that says
/// it is ready instead of probing it.
///
/// The command runs under a watchdog shell whose standard input is ``ProcessRunner``'s lifeline:
/// when this process is gone the watchdog's `read` returns and it kills the command with SIGKILL
/// (`openssl ocsp` ignores SIGTERM); where `setpriv` exists the kernel also kills the command if
/// the watchdog itself is killed.
public final class BackgroundProcess: @unchecked Sendable {
    private let lock = NSLock()
    private var received = Data()
    private var ended = false
    private let arrived = DispatchSemaphore(value: 0)
    private let outputPipe = Pipe()
    private let description: String

    /// Starts `command` (a program and its arguments, looked up on `PATH`) in `directory`.
    public init(_ command: [String], in directory: URL) throws {
        _ = ProcessRunner.ignoresSIGPIPE
        description = command.joined(separator: " ")
        let pdeath = FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") ? ["setpriv", "--pdeathsig", "KILL"] : []
        let line = (pdeath + command).map(ProcessRunner.shellQuoted).joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "\(line) 2>&1 & child=$!; trap 'kill -KILL $child 2>/dev/null' EXIT HUP INT TERM; read _"]
        process.currentDirectoryURL = directory
        process.standardInput = ProcessRunner.lifeline.fileHandleForReading
        process.standardOutput = outputPipe
        process.standardError = FileHandle.nullDevice
        outputPipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            if data.isEmpty { handle.readabilityHandler = nil }
            guard let self else { return }
            lock.withLock { if data.isEmpty { ended = true } else { received.append(data) } }
            arrived.signal()
        }
        try process.run()
    }

    /// Everything the command has written so far, as text.
    public var output: String { lock.withLock { String(decoding: received, as: UTF8.self) } }

    /// Waits until a line of the output contains `marker` (the server's "listening" line). Throws
    /// when the output ends first, or when `limit` passes (a bound for a server that never starts
    /// only: the wait ends as soon as the line arrives).
    public func waitForLine(containing marker: String, limit: Duration = .seconds(120)) throws {
        let deadline = DispatchTime.now() + Double(limit.components.seconds)
        while true {
            let (text, ended) = lock.withLock { (String(decoding: received, as: UTF8.self), self.ended) }
            if text.split(separator: "\n").contains(where: { $0.contains(marker) }) { return }
            if ended || arrived.wait(timeout: deadline) == .timedOut {
                throw FixtureError("\(description) never printed a line with \"\(marker)\"\(ended ? " (its output ended)" : ""): \(text)")
            }
        }
    }
}
