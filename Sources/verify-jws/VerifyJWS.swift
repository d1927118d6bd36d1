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
            notification body {"signedPayload":"..."} per line; blank lines are skipped. Every line goes \
            through one verifier, in input order.

            Exit status: 0 when every input verified, 1 when any was unverified, 2 when any was \
            malformed or the arguments were wrong.
            """
    )

    @OptionGroup var verifierOptions: VerifierOptions

    @Option(name: .customLong("effective-date"), help: ArgumentHelp("When certificates must be valid: 'signed' (the payload's signedDate, default), 'now', or an ISO 8601 instant.", valueName: "signed|now|ISO8601"))
    var effectiveDate: EffectiveDateOption = EffectiveDateOption(argument: "signed")!

    @Option(name: .customLong("type"), help: ArgumentHelp("The kind of signed data; 'auto' tells it from the payload.", valueName: "auto|transaction|renewal|app-transaction|notification|realtime-request"))
    var type: PayloadTypeOption = .auto

    @Option(name: .customLong("format"), help: "Output: 'text' for people, 'json' for one JSON object per input line.")
    var format: OutputFormat = .text

    @Option(name: .customLong("jobs"), help: ArgumentHelp("Verify on N threads (default: all cores); output stays in input order.", valueName: "N"))
    var jobs: Int?

    @Argument(help: ArgumentHelp("Input files; '-' or none reads standard input.", valueName: "FILE"))
    var files: [String] = []

    func validate() throws {
        if let jobs, jobs < 1 {
            throw ValidationError("--jobs must be at least 1.")
        }
    }

    mutating func run() throws {
        let verifier: SignedDataVerifier
        do {
            verifier = try SignedDataVerifier(configuration: try makeConfiguration())
        } catch {
            throw ValidationError(error.message)
        }
        let lines: [InputLine]
        do {
            lines = try InputLines.read(from: files)
        } catch {
            throw ValidationError("\(error)")
        }
        let lineVerifier = LineVerifier(verifier: verifier, type: type)
        let threads = jobs ?? ProcessInfo.processInfo.activeProcessorCount
        var writer = OutputWriter(format: format)
        var progress = ProgressBar(total: lines.count)
        var worst = Outcome.Status.verified
        // Batches bound the memory held by outcomes not yet written.
        let batchSize = 4_096
        for start in stride(from: 0, to: lines.count, by: batchSize) {
            let batch = lines[start..<min(start + batchSize, lines.count)]
            let format = self.format
            let results = ParallelVerification.map(batch, jobs: threads) { line in
                let outcome = lineVerifier.outcome(for: line.text)
                return (status: outcome.overallStatus, output: OutputWriter.render(outcome, for: line, format: format))
            }
            for result in results {
                writer.write(result.output)
                worst = Outcome.worse(worst, result.status)
            }
            progress.update(done: batch.endIndex)
        }
        progress.finish()
        writer.finish()
        switch worst {
        case .verified: return
        case .unverified: throw ExitCode(1)
        case .malformed: throw ExitCode(2)
        }
    }

    private func makeConfiguration() throws(VerifierConfigurationError) -> SignedDataVerifier.Configuration {
        try verifierOptions.makeConfiguration(effectiveDate: effectiveDate.policy)
    }

    /// Parses the arguments and runs, mapping argument errors to exit status 2.
    static func main() {
        // `verify-jws entitlements ...` is its own command (see EntitlementsCommand.swift).
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == EntitlementsCommand.configuration.commandName {
            EntitlementsCommand.main(arguments: Array(arguments.dropFirst()))
        }
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
