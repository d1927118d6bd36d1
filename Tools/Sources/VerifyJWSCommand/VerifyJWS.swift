import AppStoreVerification
import ArgumentParser
import Foundation

/// `verify-jws`: verifies App Store signed data (JWS) line by line. The executable target calls
/// ``VerifyJWSTool/main()``, which calls ``main()`` here.
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
            malformed, the input empty or unreadable, or the arguments wrong; 3 when (with --online) \
            none of those happened but a revocation check could not be made (status 'unavailable': \
            retry later).
            """,
        version: ToolVersion.text,
        subcommands: [EntitlementsCommand.self, SignCommand.self, TestPKICommand.self, MintCommand.self, APICommand.self]
    )


    @Option(name: .customLong("root"), help: ArgumentHelp("A trusted root certificate, DER or PEM (repeatable). It replaces the JWS root (default: the embedded Apple Root CA - G3); with --type app-receipt the receipt root instead (default: the embedded Apple Root CA); with --type auto (the default) both: JWS and receipt chains must then each end at one of the given roots.", valueName: "FILE"))
    var roots: [String] = []

    @OptionGroup var verifierOptions: VerifierOptions

    @Option(name: .customLong("effective-date"), help: ArgumentHelp("When certificates must be valid: 'signed' (the payload's signedDate; a receipt's creation date; default), 'created' (the same), 'now', or an ISO 8601 instant.", valueName: "signed|created|now|ISO8601"))
    var effectiveDate: EffectiveDateOption = .signed

    @Option(name: .customLong("type"), help: ArgumentHelp("The kind of signed data; 'auto' tells it from the payload.", valueName: "auto|transaction|renewal|app-transaction|notification|realtime-request|app-receipt"))
    var type: PayloadTypeOption = .auto

    @Option(name: .customLong("format"), help: "Output: 'text' for people, 'json' for one JSON object per input line.")
    var format: OutputFormat = .text

    @Option(name: .customLong("jobs"), help: ArgumentHelp("Verify on N threads (default: all cores); output stays in input order.", valueName: "N"))
    var jobs: Int?

    @Option(name: .customLong("max-input-bytes"), help: ArgumentHelp("The longest input line accepted, in bytes; longer lines are skipped unread and reported as inputTooLarge.", valueName: "N"))
    var maxInputBytes: Int = SignedDataVerifier.Configuration().maximumInputLength

    @Flag(name: .customLong("online"), help: "Check the leaf and intermediate for revocation with OCSP (network requests to the responders their certificates name); the effective date is then now.")
    var online = false

    @Option(name: .customLong("ocsp-timeout"), help: ArgumentHelp("With --online: the timeout of one OCSP request, in seconds (default 5).", valueName: "SECONDS"))
    var ocspTimeout: Double?

    @Argument(help: ArgumentHelp("Input files; '-' or none reads standard input.", valueName: "FILE"))
    var files: [String] = []

    func validate() throws {
        if let jobs, jobs < 1 {
            throw ValidationError("--jobs must be at least 1.")
        }
        if maxInputBytes < 1 {
            throw ValidationError("--max-input-bytes must be at least 1.")
        }
        if let ocspTimeout, !(ocspTimeout > 0 && ocspTimeout <= 600) {
            throw ValidationError("--ocsp-timeout must be more than 0 and at most 600 seconds.")
        }
        if ocspTimeout != nil, !online {
            throw ValidationError("--ocsp-timeout needs --online.")
        }
    }

    mutating func run() throws {
        let verifier: SignedDataVerifier
        var onlineVerifier: OnlineSignedDataVerifier?
        do {
            let configuration = try makeConfiguration()
            verifier = try SignedDataVerifier(configuration: configuration)
            if online {
                let timeout = Duration.milliseconds(Int64(((ocspTimeout ?? 5) * 1000).rounded()))
                onlineVerifier = try OnlineSignedDataVerifier(configuration: configuration,
                                                              revocation: OCSPOptions(requestTimeout: timeout, overallDeadline: timeout * 2))
            }
        } catch {
            throw ValidationError(error.commandLineMessage())
        }
        var input: InputLines
        do {
            input = try InputLines(paths: files, maximumLineLength: maxInputBytes, readsDERReceipts: type == .appReceipt || type == .auto)
        } catch {
            // One line, not a usage dump: the arguments were fine, the file is not.
            CommandContext.writeError("verify-jws: \(LogSafeText.escaping(error.message))\n")
            throw ExitCode(2)
        }
        let lineVerifier = LineVerifier(verifier: verifier, type: type, onlineVerifier: onlineVerifier)
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
            CommandContext.writeError("verify-jws: \(LogSafeText.escaping("\(error)"))\n")
        }
        guard input.inputErrors.isEmpty else { throw ExitCode(2) }
        guard tally.count > 0 else {
            let names = files.isEmpty || files == ["-"] ? "standard input" : files.joined(separator: ", ")
            CommandContext.writeError("verify-jws: no input: \(names) held no JWS (one JWS or notification body per line; blank lines are skipped)\n")
            throw ExitCode(2)
        }
        switch tally.worst {
        case .verified: return
        case .unverified: throw ExitCode(1)
        case .malformed: throw ExitCode(2)
        case .unavailable: throw ExitCode(3)
        }
    }

    private func makeConfiguration() throws(VerifierConfigurationError) -> SignedDataVerifier.Configuration {
        let rootScope: VerifierOptions.RootScope = switch type {
        case .auto: .signedDataAndAppReceipts
        case .appReceipt: .appReceipts
        default: .signedData
        }
        var configuration = try verifierOptions.makeConfiguration(roots: roots, effectiveDate: effectiveDate.policy, rootScope: rootScope, forReceipts: type == .appReceipt, routeXcodeCertificateByKey: type == .auto)
        configuration.maximumInputLength = maxInputBytes
        return configuration
    }

    /// Whether `arguments` name `verify-jws api` (asynchronous: run by ``APICommand``).
    static func isAPICommand(_ arguments: [String]) -> Bool {
        arguments.first == APICommand.configuration.commandName
    }

    /// Parses `arguments` (those after the program's name), runs the command they name, and
    /// returns the exit status (argument errors: 2). `verify-jws api` is not among them
    /// (``isAPICommand(_:)``).
    static func status(arguments: [String]) -> Int32 {
        var arguments = arguments
        // `verify-jws help [SUBCOMMAND ...]` is `verify-jws [SUBCOMMAND ...] --help`.
        if arguments.first == "help" {
            arguments = Array(arguments.dropFirst()) + ["--help"]
        }
        // The subcommands are parsed on their own: this command's FILE arguments would otherwise take
        // a subcommand's name for a file.
        let rest = Array(arguments.dropFirst())
        switch arguments.first {
        case EntitlementsCommand.configuration.commandName: return EntitlementsCommand.status(running: rest)
        case SignCommand.configuration.commandName: return SignCommand.status(running: rest)
        case TestPKICommand.configuration.commandName: return TestPKICommand.status(running: rest)
        case MintCommand.configuration.commandName: return MintCommand.status(running: rest)
        default: return status(running: arguments)
        }
    }
}
