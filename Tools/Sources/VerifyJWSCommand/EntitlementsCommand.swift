import AppStoreVerification
import ArgumentParser
import Foundation

/// `verify-jws entitlements`: what one customer is entitled to, from their signed data.
struct EntitlementsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "entitlements",
        // Parsed on its own (see VerifyJWS.main()): the usage lines still read `verify-jws entitlements ...`.
        _superCommandName: "verify-jws",
        abstract: "Compute one customer's current entitlements from their signed data.",
        discussion: """
            The input (a file, or standard input with '-' or no file) holds one customer's signed data, \
            one item per line: transaction JWS, renewal-info JWS, notification JWS or notification body \
            {"signedPayload":"..."}; any order, duplicates allowed; blank lines are skipped. Only data \
            that verifies counts.

            Output: one JSON object {"at": <ms>, "entitlements": [...], "rejected": [{"line", "status", \
            "error"}]}, where entitlements lists only what is granted at the instant (state subscribed, \
            inGracePeriod, or purchased for non-consumables).

            Exit status: 0 whether or not anything is granted, 1 when any line (or data nested in it) \
            was unverified, 2 when any line was malformed or the arguments were wrong.
            """
    )

    @Option(name: .customLong("root"), help: ArgumentHelp("A trusted root certificate, DER or PEM (repeatable), replacing the embedded Apple Root CA - G3 that the signed data must chain to.", valueName: "FILE"))
    var roots: [String] = []

    @OptionGroup var verifierOptions: VerifierOptions

    @Option(name: .customLong("at"), help: ArgumentHelp("The instant to answer for: 'now' (default) or an ISO 8601 instant.", valueName: "now|ISO8601"))
    var at: InstantOption = InstantOption(date: Date())

    @Option(name: .customLong("non-renewing-duration"), help: ArgumentHelp("How long a non-renewing subscription lasts from its purchase (repeatable): PRODUCT_ID=DURATION, the duration in seconds or with a suffix d or h (e.g. com.example.pass=90d). Without it, a non-renewing product lasts until revoked.", valueName: "PRODUCT_ID=DURATION"))
    var nonRenewingDurations: [NonRenewingDurationOption] = []

    @Option(name: .customLong("max-input-bytes"), help: ArgumentHelp("The longest input line accepted, in bytes.", valueName: "N"))
    var maxInputBytes: Int = SignedDataVerifier.Configuration().maximumInputLength

    @Argument(help: ArgumentHelp("The input file; '-' or none reads standard input.", valueName: "FILE"))
    var file: String?

    mutating func run() throws {
        let verifier: SignedDataVerifier
        do {
            verifier = try SignedDataVerifier(configuration: try verifierOptions.makeConfiguration(roots: roots, effectiveDate: .signedDate))
        } catch {
            throw ValidationError(error.commandLineMessage())
        }
        var input: InputLines
        do {
            input = try InputLines(paths: [file ?? "-"], maximumLineLength: maxInputBytes)
        } catch {
            CommandContext.writeError("verify-jws entitlements: \(LogSafeText.escaping(error.message))\n")
            throw ExitCode(2)
        }
        var durations: [String: TimeInterval] = [:]
        for option in nonRenewingDurations { durations[option.productId] = option.seconds }
        var engine = EntitlementEngine(configuration: .init(nonRenewingDurations: durations))
        var rejected: [EntitlementsOutput.RejectedLine] = []
        while let line = input.next() {
            if let problem = line.problem {
                let error = LineVerifier.error(for: problem, at: line)
                rejected.append(.init(line: line.lineNumber, status: .malformed, code: error.code, message: error.message))
                continue
            }
            let item: EntitlementEngine.Item
            switch EntitlementLineReader.item(for: line.text, verifier: verifier) {
            case .success(let read): item = read
            case .failure(let error):
                rejected.append(.init(line: line.lineNumber, status: .malformed, code: error.code.description, message: error.message))
                continue
            }
            rejected += EntitlementLineReader.nestedFailures(in: item).map {
                EntitlementsOutput.RejectedLine(line: line.lineNumber, status: $0.status, code: $0.code, message: $0.message)
            }
            engine.ingest(item)
        }
        for error in input.inputErrors {
            CommandContext.writeError("verify-jws entitlements: \(LogSafeText.escaping("\(error)"))\n")
        }
        guard input.inputErrors.isEmpty else { throw ExitCode(2) }
        let output = EntitlementsOutput(at: at.date, entitlements: engine.currentEntitlements(at: at.date), rejected: rejected)
        CommandContext.writeOutput(output.json() + "\n")
        switch output.worstStatus {
        case .verified: return
        case .unverified: throw ExitCode(1)
        case .malformed: throw ExitCode(2)
        }
    }
}

/// The `--at` option: `now` or an ISO 8601 instant (the formats `--effective-date` accepts).
struct InstantOption: ExpressibleByArgument, Sendable {
    let date: Date

    init(date: Date) { self.date = date }

    init?(argument: String) {
        if argument.lowercased() == "now" {
            date = Date()
            return
        }
        guard let parsed = EffectiveDateOption(argument: argument), case .fixed(let fixed) = parsed.policy else { return nil }
        date = fixed
    }

    var defaultValueDescription: String { "now" }
}

/// One `--non-renewing-duration PRODUCT_ID=DURATION`.
struct NonRenewingDurationOption: ExpressibleByArgument, Sendable {
    let productId: String
    let seconds: TimeInterval

    init?(argument: String) {
        guard let separator = argument.lastIndex(of: "=") else { return nil }
        let product = String(argument[..<separator])
        var amount = Substring(argument[argument.index(after: separator)...])
        var unit: Double = 1
        if amount.hasSuffix("d") { unit = 86_400; amount = amount.dropLast() }
        else if amount.hasSuffix("h") { unit = 3_600; amount = amount.dropLast() }
        guard !product.isEmpty, let value = Double(amount), value.isFinite, value > 0, value * unit < 1.0e12 else { return nil }
        productId = product
        seconds = value * unit
    }
}
