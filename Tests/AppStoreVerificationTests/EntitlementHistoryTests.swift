import AppStoreVerificationTestSupport
import Foundation
import Testing
@testable import AppStoreVerification

/// What the library's tests add to a history (AppStoreVerificationTestSupport's `SignedHistory`).
extension SignedHistory {
    var engineConfiguration: EntitlementEngine.Configuration {
        .init(nonRenewingDurations: configuration.nonRenewingDurations)
    }

    /// A verifier trusting the histories' own test PKI.
    static func verifier() throws -> SignedDataVerifier {
        let root = try TrustedRoot(derEncoded: Data(contentsOf: TestPaths.testVector("histories/pki/root.der")))
        return try SignedDataVerifier(configuration: .init(trustedRoots: [root], bundleId: "com.example.app", environment: .sandbox))
    }

    /// A line verified through the real verifier, as the engine's item.
    static func item(_ line: String, verifier: SignedDataVerifier) throws -> EntitlementEngine.Item {
        if line.hasPrefix("{") { return .notification(try verifier.verifyNotification(Data(line.utf8))) }
        switch SignedPayloadKind(detectingPayloadOf: line) ?? .transaction {
        case .renewalInfo: return .renewalInfo(try verifier.verifyRenewalInfo(line))
        case .notification: return .notification(try verifier.verifyNotification(line))
        default: return .transaction(try verifier.verifyTransaction(line))
        }
    }
}

extension Entitlement {
    var summary: SignedHistory.Status { .init(productId: productId, transactionId: transactionId, state: state.rawValue) }
}

@Suite("Entitlements: signed histories")
struct EntitlementHistoryTests {
    @Test("the manifest lists every history file, and every rule has a history")
    func manifestIsComplete() throws {
        #expect(SignedHistory.all.count >= 14)
        let files = try FileManager.default.contentsOfDirectory(atPath: TestPaths.testVector("histories").path)
            .filter { $0.hasSuffix(".txt") }
        #expect(Set(files) == Set(SignedHistory.all.map(\.file)))
        for history in SignedHistory.all {
            #expect(try history.lines().count == history.lineCount, "\(history.name)")
            #expect(!history.checks.isEmpty, "\(history.name)")
        }
    }

    @Test("each signed history, verified through the real verifier, gives the expected state of every product at every instant — in file order, reversed, and shuffled with duplicates", arguments: SignedHistory.all)
    func history(_ history: SignedHistory) throws {
        let verifier = try SignedHistory.verifier()
        let items = try history.lines().map { try SignedHistory.item($0, verifier: verifier) }

        var random = SplitMix64(seed: history.name.utf8.reduce(UInt64(14_695_981_039_346_656_037)) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 })
        var shuffled = items + items.filter { _ in random.below(2) == 0 }
        for index in shuffled.indices.reversed() where index > 0 {
            shuffled.swapAt(index, random.below(index + 1))
        }
        let orders: [(String, [EntitlementEngine.Item])] = [("file order", items), ("reversed", items.reversed()), ("shuffled with duplicates", shuffled)]

        let reference = EntitlementEngine(configuration: history.engineConfiguration, items: items)
        for (label, order) in orders {
            let engine = EntitlementEngine(configuration: history.engineConfiguration, items: order)
            #expect(engine.history == reference.history, "\(label)")
            for check in history.checks {
                let statuses = engine.statuses(at: check.instant)
                #expect(statuses.map(\.summary) == check.statuses, "\(label) at \(check.at): \(statuses.map(\.reason))")
                let granted = engine.currentEntitlements(at: check.instant)
                #expect(granted.map(\.summary) == check.statuses.filter { ["purchased", "subscribed", "inGracePeriod"].contains($0.state) }, "\(label) at \(check.at)")
                #expect(granted.allSatisfy { $0.isGranted })
                #expect(statuses.allSatisfy { !$0.reason.isEmpty })
            }
        }
    }

    @Test("exactly the lines the manifest names are rejected, with its code; they change nothing", arguments: SignedHistory.all)
    func rejectedLines(_ history: SignedHistory) throws {
        let verifier = try SignedHistory.verifier()
        let lines = try history.lines()
        var engine = EntitlementEngine(configuration: history.engineConfiguration)
        var rejected: [(line: Int, code: String)] = []
        for (index, line) in lines.enumerated() {
            let item = try SignedHistory.item(line, verifier: verifier)
            let before = engine.history
            let report = engine.ingest(item)
            for rejection in report.rejections { rejected.append((index + 1, rejection.code)) }
            if !report.rejections.isEmpty {
                #expect(engine.history == before, "line \(index + 1) was rejected but changed the history")
                #expect(!report.changed)
            }
        }
        #expect(rejected.map(\.line) == history.rejected.map(\.line))
        #expect(rejected.map(\.code) == history.rejected.map(\.code))
    }

    @Test("a stored history (JSON) restores into an engine with the same answers", arguments: SignedHistory.all)
    func snapshotRoundTrip(_ history: SignedHistory) throws {
        let verifier = try SignedHistory.verifier()
        let items = try history.lines().map { try SignedHistory.item($0, verifier: verifier) }
        let engine = EntitlementEngine(configuration: history.engineConfiguration, items: items)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(engine.history)
        let restored = EntitlementEngine(configuration: history.engineConfiguration, history: try JSONDecoder().decode(CustomerHistory.self, from: data))
        #expect(restored.history == engine.history)
        #expect(try encoder.encode(restored.history) == data)
        for check in history.checks {
            #expect(restored.statuses(at: check.instant) == engine.statuses(at: check.instant))
        }
    }
}
