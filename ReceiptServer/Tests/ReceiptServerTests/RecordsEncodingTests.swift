import AppStoreVerification
import AppStoreVerificationTestSupport
import Foundation
@testable import ReceiptServerCore
import Testing

/// The records stored beside each JWS are written by ``ServerJSON`` (the library's public
/// `AppStoreJSON.makeEncoder()`) and cut into their three arrays (``HistoryMembers``); they must be
/// the very bytes the earlier Foundation path wrote (`JSONEncoder`, sorted keys, unescaped slashes,
/// encoded, decoded and each array encoded again), or `reverify` would report every row of an
/// existing database as changed.
@Suite("Stored records: the same bytes as Foundation's encoder")
struct RecordsEncodingTests {
    /// The records as the server computed them before: Foundation's encoder and decoder.
    static func foundationRecords(_ item: EntitlementEngine.Item) throws -> (String, String, String) {
        var engine = EntitlementEngine()
        engine.ingest(item)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let history = try JSONDecoder().decode([String: JSONValue].self, from: try encoder.encode(engine.history))
        func array(_ key: String) throws -> String { String(decoding: try encoder.encode(history[key] ?? .array([])), as: UTF8.self) }
        return (try array("transactions"), try array("renewalInfos"), try array("revocationNotices"))
    }

    @Test("Every signed line of TestVectors/histories (transactions, renewal info, notifications, refunds, revocations, tampered data)")
    func historiesVectors() throws {
        let verifier = try SignedDataVerifier(configuration: .init(
            trustedRoots: try TrustedRoot.roots(contentsOf: TestData.historiesRoot), bundleId: "com.example.app", environment: .sandbox))
        let names = try FileManager.default.contentsOfDirectory(atPath: TestPaths.testVector("histories").path).filter { $0.hasSuffix(".txt") }
        #expect(!names.isEmpty)
        var checked = 0
        for name in names {
            for line in try TestData.historyLines(String(name.dropLast(4))) where !line.isEmpty {
                let payload = TestData.unverifiedPayload(line)
                let item: EntitlementEngine.Item
                if line.hasPrefix("{") || payload["notificationType"] != nil {
                    guard let result = try? (line.hasPrefix("{") ? verifier.verifyNotification(Data(line.utf8)) : verifier.verifyNotification(line)) else { continue }
                    item = .notification(result)
                } else if payload["transactionId"] != nil {
                    guard let result = try? verifier.verifyTransaction(line) else { continue }
                    item = .transaction(result)
                } else {
                    guard let result = try? verifier.verifyRenewalInfo(line) else { continue }
                    item = .renewalInfo(result)
                }
                let records = try VerifiedRecords.of(item, name: "line")
                let expected = try Self.foundationRecords(item)
                #expect(records.transactionRecords == expected.0, "\(name): \(line.prefix(40))")
                #expect(records.renewalRecords == expected.1, "\(name): \(line.prefix(40))")
                #expect(records.revocationRecords == expected.2, "\(name): \(line.prefix(40))")
                #expect(try VerifiedRecords.history(of: [records]) == { var engine = EntitlementEngine(); engine.ingest(item); return engine.history }())
                checked += 1
            }
        }
        #expect(checked > 20, "\(checked) lines checked")
    }
}
