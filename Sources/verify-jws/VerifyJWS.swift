import AppStoreVerification
import ArgumentParser
import Foundation

/// `verify-jws`: verifies App Store signed data (JWS) line by line.
@main
struct VerifyJWS: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify-jws",
        abstract: "Verify App Store signed data: transactions, renewal info, app transactions, Server Notifications V2.",
        discussion: """
            Each input file (or standard input, with '-' or no file) holds one JWS per line, or one \
            notification body {"signedPayload":"..."} per line; blank lines are skipped. Input is read, \
            verified and written as a stream: each line's verdict is written as soon as it and the lines \
            before it are done, in input order.

            Exit status: 0 when every input verified, 1 when any was unverified, 2 when any was \
            malformed, the input empty or unreadable, or the arguments wrong.
            """,
        version: ToolVersion.text
    )

    @Option(name: .customLong("root"), help: ArgumentHelp("A trusted root certificate, DER or PEM (repeatable). Default: the embedded Apple Root CA - G3.", valueName: "FILE"))
    var roots: [String] = []

    @Option(name: .customLong("bundle-id"), help: ArgumentHelp("The bundle ID payloads must carry.", valueName: "ID"))
    var bundleId: String?

    @Option(name: .customLong("app-apple-id"), help: ArgumentHelp("The App Apple ID payloads must carry (required with --environment Production).", valueName: "N"))
    var appAppleId: Int64?

    @Option(name: .customLong("environment"), help: ArgumentHelp("The environment payloads must come from.", valueName: "NAME"))
    var environment: EnvironmentOption?

    @Option(name: .customLong("effective-date"), help: ArgumentHelp("When certificates must be valid: 'signed' (the payload's signedDate), 'now', or an ISO 8601 instant.", valueName: "signed|now|ISO8601"))
    var effectiveDate: EffectiveDateOption = .signed

    @Option(name: .customLong("type"), help: ArgumentHelp("The kind of signed data; 'auto' tells it from the payload.", valueName: "auto|transaction|renewal|app-transaction|notification|realtime-request"))
    var type: PayloadTypeOption = .auto

    @Option(name: .customLong("format"), help: "Output: 'text' for people, 'json' for one JSON object per input line.")
    var format: OutputFormat = .text

    @Option(name: .customLong("xcode-certificate"), help: ArgumentHelp("The 'StoreKit Testing in Xcode' certificate (DER or PEM) to trust for Xcode-environment data.", valueName: "FILE"))
    var xcodeCertificate: String?

    @Option(name: .customLong("jobs"), help: ArgumentHelp("Verify on N threads (default: all cores); output stays in input order.", valueName: "N"))
    var jobs: Int?

    @Option(name: .customLong("max-input-bytes"), help: ArgumentHelp("The longest input line accepted, in bytes; longer lines are skipped unread and reported as inputTooLarge.", valueName: "N"))
    var maxInputBytes: Int = SignedDataVerifier.Configuration().maximumInputLength

    @Flag(name: .customLong("no-strict"), help: "Relax OpenSSL's strict X.509 checks (for test PKIs without key identifiers, such as Apple's library test data).")
    var noStrict = false

    @Argument(help: ArgumentHelp("Input files; '-' or none reads standard input.", valueName: "FILE"))
    var files: [String] = []

    func validate() throws {
        if let jobs, jobs < 1 {
            throw ValidationError("--jobs must be at least 1.")
        }
        if maxInputBytes < 1 {
            throw ValidationError("--max-input-bytes must be at least 1.")
        }
        if environment?.isProduction == true, appAppleId == nil {
            throw ValidationError("--environment Production needs --app-apple-id N: your app's Apple ID (the number in App Store Connect, App Information), which production payloads must carry.")
        }
    }

    mutating func run() throws {
        let verifier: SignedDataVerifier
        do {
            verifier = try SignedDataVerifier(configuration: try makeConfiguration())
        } catch {
            throw ValidationError(error.message)
        }
        var input: InputLines
        do {
            input = try InputLines(paths: files, maximumLineLength: maxInputBytes)
        } catch {
            // One line, not a usage dump: the arguments were fine, the file is not.
            FileHandle.standardError.write(Data("verify-jws: \(error.message)\n".utf8))
            throw ExitCode(2)
        }
        let lineVerifier = LineVerifier(verifier: verifier, type: type)
        let threads = jobs ?? ProcessInfo.processInfo.activeProcessorCount
        let writer = OutputWriter(format: format)
        let format = self.format
        let tally = Tally()
        if threads == 1 {
            // One thread: read, verify, write, in turn.
            while let line = input.next() {
                let outcome = lineVerifier.outcome(for: line)
                tally.add(outcome.overallStatus)
                writer.write(OutputWriter.render(outcome, for: line, format: format))
                writer.endOfRun()
            }
        } else {
            // A window of a few lines per worker keeps every worker busy while the reader and the
            // writer wait on I/O, without holding more than a handful of lines in memory.
            let pipeline = OrderedPipeline<(status: Outcome.Status, output: String)>(
                jobs: threads, window: 8 * threads,
                transform: { line in
                    let outcome = lineVerifier.outcome(for: line)
                    return (outcome.overallStatus, OutputWriter.render(outcome, for: line, format: format))
                },
                consume: { result in
                    tally.add(result.status)
                    writer.write(result.output)
                },
                endOfRun: { writer.endOfRun() }
            )
            while let line = input.next() { pipeline.submit(line) }
            pipeline.finish()
        }
        writer.flush()
        tally.finish()
        for error in input.inputErrors {
            FileHandle.standardError.write(Data("verify-jws: \(error)\n".utf8))
        }
        guard input.inputErrors.isEmpty else { throw ExitCode(2) }
        guard tally.count > 0 else {
            let names = files.isEmpty || files == ["-"] ? "standard input" : files.joined(separator: ", ")
            FileHandle.standardError.write(Data("verify-jws: no input: \(names) held no JWS (one JWS or notification body per line; blank lines are skipped)\n".utf8))
            throw ExitCode(2)
        }
        switch tally.worst {
        case .verified: return
        case .unverified: throw ExitCode(1)
        case .malformed: throw ExitCode(2)
        }
    }

    private func makeConfiguration() throws(VerifierConfigurationError) -> SignedDataVerifier.Configuration {
        var configuration = SignedDataVerifier.Configuration()
        if !roots.isEmpty {
            var trusted: [TrustedRoot] = []
            for path in roots {
                trusted += try TrustedRoot.roots(contentsOf: URL(fileURLWithPath: path))
            }
            configuration.trustedRoots = trusted
        }
        if let xcodeCertificate {
            let certificates = try TrustedRoot.roots(contentsOf: URL(fileURLWithPath: xcodeCertificate))
            guard certificates.count == 1, let certificate = certificates.first else {
                throw VerifierConfigurationError(.invalidCertificate, "\(xcodeCertificate) holds \(certificates.count) certificates; --xcode-certificate takes exactly one.")
            }
            configuration.xcodeCertificate = certificate
        }
        configuration.bundleId = bundleId
        configuration.appAppleId = appAppleId
        configuration.environment = environment?.environment
        configuration.effectiveDate = effectiveDate.policy
        configuration.strictChecks = !noStrict
        configuration.maximumInputLength = maxInputBytes
        return configuration
    }

    /// Parses the arguments and runs, mapping argument errors to exit status 2.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            let code = exitCode(for: error)
            if code == .success || error is ExitCode {
                exit(withError: error)
            }
            let message = fullMessage(for: error)
            if !message.isEmpty {
                FileHandle.standardError.write(Data((message + "\n").utf8))
            }
            Foundation.exit(2)
        }
    }
}
