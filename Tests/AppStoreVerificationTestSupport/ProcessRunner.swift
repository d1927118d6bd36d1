import Foundation

/// The one way the repository's tests run a process (the library's, Tools' and ReceiptServer's tests).
///
/// SIGPIPE is ignored for the whole test process before any child starts, so a child that exits
/// before reading all its input makes the write fail with EPIPE (reported, or ignored) instead of
/// killing the test runner; input is written with `write(contentsOf:)`, which throws instead of
/// trapping. Output pipes are read while the input is written, so a large output cannot dead-lock.
///
/// - ``run(_:_:stdin:in:environment:)``: a program run to completion (or, from async code, awaited
///   without blocking the cooperative pool).
/// - ``Interactive``: a program whose standard input stays open (answers before end of input).
/// - ``startUntilThisProcessEnds(_:in:)``: a shell script in the background that ends with this
///   process (clean-up watchdogs, ``deleteWhenThisProcessEnds(_:)``); ``BackgroundProcess`` for a
///   server that must be ready before the tests use it.
public enum ProcessRunner {
    /// What a program run to completion left.
    public struct Output: Sendable {
        /// Its exit status (or the signal that ended it).
        public var status: Int32
        /// Its standard output.
        public var stdout: Data
        /// Its standard error.
        public var stderr: Data
        /// Standard output and standard error as text, one after the other.
        public var output: String { String(decoding: stdout, as: UTF8.self) + String(decoding: stderr, as: UTF8.self) }
    }

    /// SIGPIPE ignored once per process.
    static let ignoresSIGPIPE: Void = { signal(SIGPIPE, SIG_IGN) }()

    /// Runs `executable` with `arguments` (in `directory`, with `environment` when given), feeding
    /// it `stdin` and collecting its output.
    public static func run(_ executable: String, _ arguments: [String], stdin: Data? = nil, in directory: URL? = nil,
                    environment: [String: String]? = nil) throws -> Output {
        try run(URL(fileURLWithPath: executable), arguments, stdin: stdin, in: directory, environment: environment)
    }

    /// Runs the program at `executable`; see ``run(_:_:stdin:in:environment:)``.
    public static func run(_ executable: URL, _ arguments: [String], stdin: Data? = nil, in directory: URL? = nil,
                    environment: [String: String]? = nil) throws -> Output {
        _ = ignoresSIGPIPE
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if let environment { process.environment = environment }
        let input = Pipe.closingOnExec(), out = Pipe.closingOnExec(), err = Pipe.closingOnExec()
        process.standardInput = input
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let collected = Collected()
        let group = DispatchGroup()
        for (pipe, isError) in [(out, false), (err, true)] {
            group.enter()
            DispatchQueue.global().async {
                collected.set(pipe.fileHandleForReading.readDataToEndOfFile(), isError: isError)
                group.leave()
            }
        }
        if let stdin, !stdin.isEmpty {
            // A child that exits early closes its end: EPIPE, not a signal.
            try? input.fileHandleForWriting.write(contentsOf: stdin)
        }
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        group.wait()
        return Output(status: process.terminationStatus, stdout: collected.data(isError: false), stderr: collected.data(isError: true))
    }

    /// Runs the program at `executable` without holding a thread of Swift's cooperative pool
    /// while it runs (the wait happens on a Dispatch thread): for tests whose in-process servers
    /// answer the program. See ``run(_:_:stdin:in:environment:)``.
    public static func run(_ executable: URL, _ arguments: [String], stdin: Data? = nil, in directory: URL? = nil,
                    environment: [String: String]? = nil) async throws -> Output {
        try await offThePool { try run(executable, arguments, stdin: stdin, in: directory, environment: environment) }
    }

    private final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var out = Data(), err = Data()
        func set(_ data: Data, isError: Bool) { lock.withLock { if isError { err = data } else { out = data } } }
        func data(isError: Bool) -> Data { lock.withLock { isError ? err : out } }
    }

    /// A program whose standard input stays open, to see its output before its input ends.
    public final class Interactive: @unchecked Sendable {
        private let process = Process()
        private let input = Pipe.closingOnExec(), output = Pipe.closingOnExec(), errors = Pipe.closingOnExec()
        private let lock = NSLock()
        private var received = Data()
        private var ended = false
        private let arrived = DispatchSemaphore(value: 0)

        /// Starts `executable` with `arguments` (in `directory` when given).
        public init(_ executable: URL, _ arguments: [String], in directory: URL? = nil) throws {
            _ = ProcessRunner.ignoresSIGPIPE
            process.executableURL = executable
            process.arguments = arguments
            if let directory { process.currentDirectoryURL = directory }
            process.standardInput = input
            process.standardOutput = output
            process.standardError = errors
            output.fileHandleForReading.readabilityHandler = { [weak self] handle in
                let data = handle.availableData
                guard let self else { return }
                lock.withLock { if data.isEmpty { ended = true } else { received.append(data) } }
                if data.isEmpty { handle.readabilityHandler = nil }
                arrived.signal()
            }
            // Standard error is drained so that the child never blocks on it.
            errors.fileHandleForReading.readabilityHandler = { handle in _ = handle.availableData }
            try process.run()
        }

        /// Writes `text` to the program's standard input; throws (EPIPE) if it has exited.
        public func write(_ text: String) throws {
            try input.fileHandleForWriting.write(contentsOf: Data(text.utf8))
        }

        /// The first `count` complete output lines, or `nil` if the program's output ends (or
        /// `limit` passes, a bound for a broken program only) before they all arrive.
        public func lines(_ count: Int, limit: Duration = .seconds(120)) -> [String]? {
            let deadline = DispatchTime.now() + Double(limit.components.seconds)
            while true {
                let (lines, ended) = lock.withLock {
                    (String(decoding: received, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init), self.ended)
                }
                if lines.count >= count { return Array(lines.prefix(count)) }
                if ended { return nil }
                if arrived.wait(timeout: deadline) == .timedOut { return nil }
            }
        }

        /// Closes standard input and waits for the program to exit: its exit status.
        public func finish() -> Int32 {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
            output.fileHandleForReading.readabilityHandler = nil
            errors.fileHandleForReading.readabilityHandler = nil
            return process.terminationStatus
        }
    }

    /// The watchdogs' standard input. Only this process holds the write end (children do not
    /// inherit it: Foundation's `Process` passes on standard input, output and error alone) and
    /// nothing is ever written, so a watchdog's `read` returns, at end of file, exactly when this
    /// process ends, however it ends, with no polling.
    static let lifeline = Pipe.closingOnExec()

    /// Starts `/bin/sh -c script` in `directory` in the background, detached from this process's
    /// output (`swift test` waits for its pipes to close: a child holding them would keep the run
    /// alive), with the lifeline as its standard input: a script that ends in `read _` acts when
    /// this process has ended (kills what it started, deletes a directory).
    public static func startUntilThisProcessEnds(_ script: String, in directory: URL) throws {
        _ = ignoresSIGPIPE
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        process.currentDirectoryURL = directory
        process.standardInput = lifeline.fileHandleForReading
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// Deletes `directory` once this process has ended, however it ends (a watchdog shell outside
    /// it): test PKIs hold private keys, which must not stay in the temporary directory.
    public static func deleteWhenThisProcessEnds(_ directory: URL) throws {
        try startUntilThisProcessEnds("read _; rm -rf -- \(shellQuoted(directory.path))", in: URL(fileURLWithPath: "/"))
    }

    /// `text` as one single-quoted shell word.
    public static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
