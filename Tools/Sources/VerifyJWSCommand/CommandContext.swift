import Foundation

/// What one run of the tool reads and writes: the process's own standard input, standard output,
/// standard error and environment (``process``), or, when the tool's tests run it in process
/// (``VerifyJWSTool/run(_:context:)``), descriptors of files that hold its input and capture what
/// it writes, and an environment of the test's choosing.
public struct CommandContext: Sendable {
    /// The descriptor of standard input (what `-` reads).
    public var input: Int32
    /// The descriptor of standard output.
    public var output: Int32
    /// The descriptor of standard error.
    public var error: Int32
    /// The environment variables (`APP_STORE_*` for `verify-jws api`).
    public var environment: [String: String]

    /// A context reading `input` and writing to `output` and `error` (open descriptors, left
    /// open), with `environment`.
    public init(input: Int32, output: Int32, error: Int32, environment: [String: String]) {
        self.input = input
        self.output = output
        self.error = error
        self.environment = environment
    }

    /// The process's standard input, output and error, and its environment.
    public static var process: CommandContext {
        CommandContext(input: STDIN_FILENO, output: STDOUT_FILENO, error: STDERR_FILENO, environment: ProcessInfo.processInfo.environment)
    }

    /// The context of the run under way (bound by ``VerifyJWSTool``).
    @TaskLocal static var current: CommandContext = .process

    /// Writes `text` to the run's standard output.
    static func writeOutput(_ text: String) {
        FileHandle(fileDescriptor: current.output, closeOnDealloc: false).write(Data(text.utf8))
    }

    /// Writes `text` to the run's standard error.
    static func writeError(_ text: String) {
        FileHandle(fileDescriptor: current.error, closeOnDealloc: false).write(Data(text.utf8))
    }
}
