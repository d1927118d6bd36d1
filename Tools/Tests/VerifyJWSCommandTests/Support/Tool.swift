import AppStoreVerificationTestSupport
import Foundation
import VerifyJWSCommand

/// `verify-jws` for the tests, run in the repository's root (arguments name files as
/// `TestVectors/...`).
///
/// ``run(_:stdin:environment:)`` and ``runAsync(_:stdin:environment:)`` run the command in this
/// process (``VerifyJWSTool``, with files for its standard input, output and error): what the
/// tests of the tool's behaviour do. ``runProcess(_:stdin:environment:)`` runs the executable
/// `swift test` built beside the test bundle, for the tests of the process boundary: the binary's
/// exit statuses, pipes and streaming, SIGPIPE.
enum Tool {
    /// What a run left.
    struct Output: Sendable {
        var status: Int32
        var stdout: String
        var stderr: String

        /// Each stdout line parsed as a JSON object.
        var jsonLines: [[String: Any]] {
            stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        }
    }

    /// The executable beside the test bundle (this test target depends on the executable target,
    /// so `swift test` builds it).
    static let executable: URL = {
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [directory, directory.deletingLastPathComponent()] {
            let url = candidate.appendingPathComponent("verify-jws")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return directory.appendingPathComponent("verify-jws")
    }()

    /// The in-process runs' working directory, the repository's root: set once for the test
    /// process (every in-process run wants the same one; the processes the tests start are given
    /// theirs explicitly).
    private static let inRepositoryRoot: Void = {
        _ = FileManager.default.changeCurrentDirectoryPath(TestPaths.repositoryRoot.path)
    }()

    /// Runs the command in this process on the calling thread: for every command but
    /// `verify-jws api` and `--online`, which wait for work on Swift's cooperative pool (use
    /// ``runAsync(_:stdin:environment:)``). `stdin` is what `-` reads (empty when `nil`);
    /// `environment` is exactly what the command sees (`nil`: this process's without `APP_STORE_*`).
    static func run(_ arguments: [String], stdin: Data? = nil, environment: [String: String]? = nil) throws -> Output {
        _ = inRepositoryRoot
        let streams = try CapturedStreams(stdin: stdin ?? Data())
        let status = VerifyJWSTool.runSynchronously(arguments, context: streams.context(environment: environment ?? defaultEnvironment))
        return try streams.output(status: status)
    }

    /// ``run(_:stdin:environment:)`` without blocking the calling task (the command's synchronous
    /// work runs on a thread of its own).
    static func runAsync(_ arguments: [String], stdin: Data? = nil, environment: [String: String]? = nil) async throws -> Output {
        _ = inRepositoryRoot
        let streams = try CapturedStreams(stdin: stdin ?? Data())
        let status = await VerifyJWSTool.run(arguments, context: streams.context(environment: environment ?? defaultEnvironment))
        return try streams.output(status: status)
    }

    /// Runs the executable as a process (through ``ProcessRunner``: SIGPIPE ignored, so a tool that
    /// exits before reading all its input cannot kill the test process), with `environment`
    /// exactly (plus PATH) when given.
    static func runProcess(_ arguments: [String], stdin: Data? = nil, environment: [String: String]? = nil) throws -> Output {
        let variables = environment.map { $0.merging(["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]) { first, _ in first } }
            ?? defaultEnvironment
        let run = try ProcessRunner.run(executable, arguments, stdin: stdin, in: TestPaths.repositoryRoot, environment: variables)
        return Output(status: run.status, stdout: String(decoding: run.stdout, as: UTF8.self), stderr: String(decoding: run.stderr, as: UTF8.self))
    }

    /// This process's environment without `APP_STORE_*`: credentials in the test runner's
    /// environment must not leak into the tests.
    private static var defaultEnvironment: [String: String] {
        ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("APP_STORE_") }
    }

    /// The arguments that configure the tool like a manifest vector's options.
    static func arguments(for vector: ManifestVector) -> [String] {
        var arguments = ["--format", "json", "--type", vector.type]
        for root in vector.options.roots { arguments += ["--root", "TestVectors/\(root)"] }
        if let bundleId = vector.options.bundleId { arguments += ["--bundle-id", bundleId] }
        if let environment = vector.options.environment { arguments += ["--environment", environment] }
        if let appAppleId = vector.options.appAppleId { arguments += ["--app-apple-id", String(appAppleId)] }
        if let effectiveDate = vector.options.effectiveDate { arguments += ["--effective-date", effectiveDate] }
        if vector.options.strict == false { arguments.append("--no-strict") }
        return arguments + ["TestVectors/\(vector.file)"]
    }
}

/// Unlinked temporary files for one in-process run's standard input (holding the input given),
/// output and error; closed when released.
private final class CapturedStreams: Sendable {
    private let input: Int32, output: Int32, error: Int32

    init(stdin: Data) throws {
        input = try Self.openUnlinkedFile()
        output = try Self.openUnlinkedFile()
        error = try Self.openUnlinkedFile()
        FileHandle(fileDescriptor: input, closeOnDealloc: false).write(stdin)
        lseek(input, 0, SEEK_SET)
    }

    deinit { [input, output, error].forEach { close($0) } }

    func context(environment: [String: String]) -> CommandContext {
        CommandContext(input: input, output: output, error: error, environment: environment)
    }

    /// What the run wrote, with its exit status.
    func output(status: Int32) throws -> Tool.Output {
        Tool.Output(status: status, stdout: try Self.contents(of: output), stderr: try Self.contents(of: error))
    }

    private static func contents(of descriptor: Int32) throws -> String {
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false)
        try handle.seek(toOffset: 0)
        return String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
    }

    private static func openUnlinkedFile() throws -> Int32 {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("verify-jws-stream-\(UUID().uuidString)").path
        let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw FixtureError("cannot create \(path): \(String(cString: strerror(errno)))") }
        unlink(path)
        return descriptor
    }
}
