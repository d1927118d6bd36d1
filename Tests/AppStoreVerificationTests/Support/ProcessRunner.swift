import Foundation

/// Runs a program to completion, feeding it `stdin` and collecting its output: the one way the
/// tests run a process.
///
/// SIGPIPE is ignored for the whole test process, so a child that exits before reading all its
/// input makes the write fail with EPIPE (reported, or ignored) instead of killing the test
/// runner; input is written with `write(contentsOf:)`, which throws instead of trapping. Both
/// output pipes are read while the input is written, so a large output cannot dead-lock.
enum ProcessRunner {
    struct Output: Sendable {
        var status: Int32
        var stdout: Data
        var stderr: Data
        /// Standard output and standard error as text, one after the other.
        var output: String { String(decoding: stdout, as: UTF8.self) + String(decoding: stderr, as: UTF8.self) }
    }

    /// SIGPIPE ignored once per process.
    private static let ignoresSIGPIPE: Void = { signal(SIGPIPE, SIG_IGN) }()

    /// Runs `executable` with `arguments` (in `directory`, with `environment` when given).
    static func run(_ executable: String, _ arguments: [String], stdin: Data? = nil, in directory: URL? = nil,
                    environment: [String: String]? = nil) throws -> Output {
        _ = ignoresSIGPIPE
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if let environment { process.environment = environment }
        let input = Pipe(), out = Pipe(), err = Pipe()
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

    private final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var out = Data(), err = Data()
        func set(_ data: Data, isError: Bool) { lock.withLock { if isError { err = data } else { out = data } } }
        func data(isError: Bool) -> Data { lock.withLock { isError ? err : out } }
    }
}
