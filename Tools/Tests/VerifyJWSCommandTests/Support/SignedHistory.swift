import AppStoreVerificationTestSupport
import Foundation
import Testing

/// One signed customer history from TestVectors/histories/manifest.json: what the CLI tests need
/// of it (the root package's EntitlementHistoryTests run the same histories through the library).
struct SignedHistory: Decodable, Sendable, CustomTestStringConvertible {
    struct Configuration: Decodable, Sendable {
        var nonRenewingDurations: [String: Double]
    }

    struct Rejected: Decodable, Sendable {
        var line: Int
        var status: String
        var code: String
    }

    struct Status: Decodable, Sendable, Hashable, CustomStringConvertible {
        var productId: String
        var transactionId: String
        var state: String
        var description: String { "\(productId) \(transactionId) \(state)" }
    }

    struct Check: Decodable, Sendable {
        var at: String
        var statuses: [Status]
        var instant: Date {
            ISO8601DateFormatter().date(from: at) ?? Date(timeIntervalSince1970: 0)
        }
    }

    var name: String
    var file: String
    var configuration: Configuration
    var rejected: [Rejected]
    var checks: [Check]

    var testDescription: String { name }

    /// The history's lines, as written.
    func lines() throws -> [String] {
        try TestPaths.text(TestPaths.testVector("histories/\(file)"))
            .split(separator: "\n").map(String.init)
    }

    /// Every history in the manifest.
    static let all: [SignedHistory] = {
        struct Manifest: Decodable { var histories: [SignedHistory] }
        guard let data = try? Data(contentsOf: TestPaths.testVector("histories/manifest.json")),
              let manifest = try? JSONDecoder().decode(Manifest.self, from: data)
        else { return [] }
        return manifest.histories
    }()
}
