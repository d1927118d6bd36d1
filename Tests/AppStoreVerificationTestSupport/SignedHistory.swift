import Foundation
import Testing

/// One signed customer history of `TestVectors/histories/manifest.json` (written by
/// TestVectors/generate_histories.py): the library's tests run it through the entitlement engine
/// (EntitlementHistoryTests), the tool's tests through `verify-jws entitlements`.
public struct SignedHistory: Decodable, Sendable, CustomTestStringConvertible {
    /// The engine's configuration the history expects.
    public struct Configuration: Decodable, Sendable {
        /// The duration in seconds of each non-renewing product, by product ID.
        public var nonRenewingDurations: [String: Double]
    }

    /// A line the engine must reject.
    public struct Rejected: Decodable, Sendable {
        /// The line's number (1 is the first).
        public var line: Int
        /// The verdict (`unverified`, `malformed`).
        public var status: String
        /// The error code.
        public var code: String
    }

    /// A product's state at an instant.
    public struct Status: Decodable, Sendable, Hashable, CustomStringConvertible {
        /// The product.
        public var productId: String
        /// The transaction the state comes from.
        public var transactionId: String
        /// The state (`subscribed`, `expired`, `revoked`, ...).
        public var state: String
        /// `productId transactionId state`.
        public var description: String { "\(productId) \(transactionId) \(state)" }

        /// A state.
        public init(productId: String, transactionId: String, state: String) {
            self.productId = productId
            self.transactionId = transactionId
            self.state = state
        }
    }

    /// The expected states at one instant.
    public struct Check: Decodable, Sendable {
        /// The instant (ISO 8601).
        public var at: String
        /// Every product's expected state then.
        public var statuses: [Status]
        /// ``at`` as a date (the epoch if it does not parse, which fails the check visibly).
        public var instant: Date {
            ISO8601DateFormatter().date(from: at) ?? Date(timeIntervalSince1970: 0)
        }
    }

    /// The history's unique name.
    public var name: String
    /// The history's file under TestVectors/histories/.
    public var file: String
    /// What the history shows, in a sentence.
    public var description: String
    /// The engine's rules the history exercises.
    public var rules: [String]
    /// The engine's configuration.
    public var configuration: Configuration
    /// How many lines the file has.
    public var lineCount: Int
    /// The lines the engine must reject.
    public var rejected: [Rejected]
    /// The expected states at each checked instant.
    public var checks: [Check]

    /// The name, as Swift Testing shows the argument.
    public var testDescription: String { name }

    /// The history's lines, as written.
    public func lines() throws -> [String] {
        try TestPaths.text(TestPaths.testVector("histories/\(file)"))
            .split(separator: "\n").map(String.init)
    }

    /// Every history in the manifest.
    public static let all: [SignedHistory] = {
        struct Manifest: Decodable { var histories: [SignedHistory] }
        guard let data = try? Data(contentsOf: TestPaths.testVector("histories/manifest.json")),
              let manifest = try? JSONDecoder().decode(Manifest.self, from: data)
        else { return [] }
        return manifest.histories
    }()
}
