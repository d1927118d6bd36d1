import AppStoreVerification
import ArgumentParser
import Foundation

/// The `--effective-date` option: `signed`, `now`, or an ISO 8601 instant.
struct EffectiveDateOption: ExpressibleByArgument, Sendable {
    let policy: EffectiveDatePolicy
    /// The argument as given, for `--help`'s default.
    let argument: String

    /// The default: the payload's signedDate.
    static let signed = EffectiveDateOption(policy: .signedDate, argument: "signed")

    private init(policy: EffectiveDatePolicy, argument: String) {
        self.policy = policy
        self.argument = argument
    }

    init?(argument: String) {
        self.argument = argument
        switch argument.lowercased() {
        case "signed", "created": policy = .signedDate
        case "now": policy = .now
        default:
            let formatter = ISO8601DateFormatter()
            if let date = formatter.date(from: argument) {
                policy = .fixed(date)
                return
            }
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            if let date = formatter.date(from: argument) {
                policy = .fixed(date)
                return
            }
            formatter.formatOptions = [.withFullDate]
            guard let date = formatter.date(from: argument) else { return nil }
            policy = .fixed(date)
        }
    }

    static var defaultCompletionKind: CompletionKind { .list(["signed", "created", "now"]) }

    /// `--help` shows the default as typed (`signed`), not as a Swift value.
    var defaultValueDescription: String { argument }
}

/// The `--environment` option, matched case-insensitively against Apple's names.
struct EnvironmentOption: ExpressibleByArgument, Sendable {
    let environment: AppStoreEnvironment

    init?(argument: String) {
        guard let match = AppStoreEnvironment.documentedValues.first(where: { $0.rawValue.lowercased() == argument.lowercased() }) else {
            return nil
        }
        environment = match
    }

    static var allValueStrings: [String] { AppStoreEnvironment.documentedValues.map(\.rawValue) }

    /// Whether this is Production, where payloads must carry the App Apple ID.
    var isProduction: Bool { environment == .production }
}
