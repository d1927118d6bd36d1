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
            malformed or the arguments were wrong, 3 when (with --online) none of those happened but \
            a revocation check could not be made (status 'unavailable': retry later).
            """
    )

    @Option(name: .customLong("root"), help: ArgumentHelp("A trusted root certificate, DER or PEM (repeatable). Default: the embedded Apple Root CA - G3.", valueName: "FILE"))
    var roots: [String] = []

    @Option(name: .customLong("bundle-id"), help: ArgumentHelp("The bundle ID payloads must carry.", valueName: "ID"))
    var bundleId: String?

    @Option(name: .customLong("app-apple-id"), help: ArgumentHelp("The App Apple ID payloads must carry (required with --environment Production).", valueName: "N"))
    var appAppleId: Int64?

    @Option(name: .customLong("environment"), help: ArgumentHelp("The environment payloads must come from: Production, Sandbox, Xcode or LocalTesting.", valueName: "NAME"))
    var environment: EnvironmentOption?

    @Option(name: .customLong("effective-date"), help: ArgumentHelp("When certificates must be valid: 'signed' (the payload's signedDate, default), 'now', or an ISO 8601 instant.", valueName: "signed|now|ISO8601"))
    var effectiveDate: EffectiveDateOption = EffectiveDateOption(argument: "signed")!

    @Option(name: .customLong("type"), help: ArgumentHelp("The kind of signed data; 'auto' tells it from the payload.", valueName: "auto|transaction|renewal|app-transaction|notification|realtime-request"))
    var type: PayloadTypeOption = .auto

    @Option(name: .customLong("format"), help: "Output: 'text' for people, 'json' for one JSON object per input line.")
    var format: OutputFormat = .text

    @Option(name: .customLong("xcode-certificate"), help: ArgumentHelp("The 'StoreKit Testing in Xcode' certificate (DER or PEM) to trust for Xcode-environment data.", valueName: "FILE"))
    var xcodeCertificate: String?

    @Option(name: .customLong("jobs"), help: ArgumentHelp("Verify on N threads (default: all cores); output stays in input order.", valueName: "N"))
    var jobs: Int?

    @Flag(name: .customLong("online"), help: "Check the leaf and intermediate for revocation with OCSP (network requests to Apple's responders); the effective date is then now.")
    var online = false

    @Option(name: .customLong("ocsp-timeout"), help: ArgumentHelp("With --online: the timeout of one OCSP request, in seconds (default 5).", valueName: "SECONDS"))
    var ocspTimeout: Double?

    @Flag(name: .customLong("no-strict"), help: "Relax OpenSSL's strict X.509 checks (for test PKIs without key identifiers, such as Apple's library test data).")
    var noStrict = false

    @Argument(help: ArgumentHelp("Input files; '-' or none reads standard input.", valueName: "FILE"))
    var files: [String] = []

    func validate() throws {
        if let jobs, jobs < 1 {
            throw ValidationError("--jobs must be at least 1.")
        }
        if let ocspTimeout, !(ocspTimeout > 0 && ocspTimeout <= 600) {
            throw ValidationError("--ocsp-timeout must be a number of seconds in (0, 600].")
        }
        if ocspTimeout != nil, !online {
            throw ValidationError("--ocsp-timeout needs --online.")
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
        let lineVerifier = LineVerifier(verifier: verifier, type: type, online: online)
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
        case .unavailable: throw ExitCode(3)
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
                throw VerifierConfigurationError("\(xcodeCertificate) holds \(certificates.count) certificates; --xcode-certificate takes exactly one.")
            }
            configuration.xcodeCertificate = certificate
        }
        configuration.bundleId = bundleId
        configuration.appAppleId = appAppleId
        configuration.environment = environment?.environment
        configuration.effectiveDate = effectiveDate.policy
        configuration.strictChecks = !noStrict
        if online {
            let timeout = Duration.milliseconds(Int64(((ocspTimeout ?? 5) * 1000).rounded()))
            configuration.revocation = .ocsp(OCSPOptions(requestTimeout: timeout, overallDeadline: timeout * 2))
        }
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
