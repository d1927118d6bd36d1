import Foundation
import Testing
@testable import AppStoreVerification

/// The real Apple-signed receipts of `../shared` (see ``RealAppReceiptTests``) piped through
/// `verify-jws --type app-receipt`, one process for all of them per effective date.
@Suite("verify-jws on real app receipts", .enabled(if: TestPaths.sharedIsPresent, sharedAbsentComment))
struct VerifyJWSRealAppReceiptTests {
    static let files = RealAppReceiptTests.allReceiptFiles

    static func input() throws -> Data {
        Data((try files.map(RealAppReceiptTests.base64Line).joined(separator: "\n") + "\n").utf8)
    }

    static func milliseconds(_ text: String) throws -> Int64 {
        Int64(try RealAppReceiptTests.date(text).timeIntervalSince1970 * 1000)
    }

    @Test("every real receipt verifies at its creation date (the default) against the embedded Apple Root CA, with its fields in the JSON payload")
    func verifiedAtCreationDate() throws {
        let output = try VerifyJWSProcess.run(["--type", "app-receipt", "--format", "json"], stdin: Self.input())
        let lines = output.jsonLines
        try #require(lines.count == Self.files.count, "\(output.stdout) \(output.stderr)")
        #expect(output.status == 0, "\(output.stderr)")
        let expectations = Dictionary(uniqueKeysWithValues: RealAppReceiptTests.receipts.map { ($0.file, $0) })
        for (file, line) in zip(Self.files, lines) {
            #expect(line["status"] as? String == "verified", "\(file): \(String(describing: line["error"]))")
            #expect(line["type"] as? String == "app-receipt", "\(file)")
            let payload = try #require(line["payload"] as? [String: Any], "\(file)")
            guard let expected = expectations[file] else {
                // The second sandbox receipt: the expectations list only its provisioning type.
                #expect(payload["bundleId"] as? String == "com.mindnode.mindnodetouch", "\(file)")
                #expect(payload["environment"] as? String == "ProductionSandbox", "\(file)")
                continue
            }
            #expect(payload["bundleId"] as? String == expected.bundleId, "\(file)")
            #expect(payload["applicationVersion"] as? String == expected.applicationVersion, "\(file)")
            #expect(payload["originalApplicationVersion"] as? String == expected.originalApplicationVersion, "\(file)")
            #expect((payload["receiptCreationDate"] as? NSNumber)?.int64Value == (try Self.milliseconds(expected.receiptCreationDate)), "\(file)")
            #expect(payload["opaqueValue"] as? String == expected.opaqueValue, "\(file)")
            #expect(payload["sha1Hash"] as? String == expected.sha1Hash, "\(file)")
            if let receiptType = expected.receiptType {
                #expect(payload["environment"] as? String == receiptType, "\(file)")
            }
            let inApp = payload["inApp"] as? [[String: Any]] ?? []
            #expect(inApp.count == expected.purchases.count, "\(file)")
            for (purchase, want) in zip(inApp, expected.purchases) {
                #expect(purchase["productId"] as? String == want.productId, "\(file)")
                #expect(purchase["transactionId"] as? String == want.transactionId, "\(file)")
                #expect((purchase["purchaseDate"] as? NSNumber)?.int64Value == (try Self.milliseconds(want.purchaseDate)), "\(file)")
                // 0 for purchases that are not subscriptions, where the expectations say nil (see the README).
                #expect((purchase["webOrderLineItemId"] as? NSNumber)?.int64Value == want.webOrderLineItemId ?? 0, "\(file)")
            }
        }
    }

    @Test("with --effective-date now every real receipt whose leaf has expired is unverified: invalidCertificateChain")
    func unverifiedNow() throws {
        let expired = Set(try RealAppReceiptTests.filesWithExpiredLeaf())
        let output = try VerifyJWSProcess.run(["--type", "app-receipt", "--format", "json", "--effective-date", "now"], stdin: Self.input())
        let lines = output.jsonLines
        try #require(lines.count == Self.files.count, "\(output.stdout) \(output.stderr)")
        for (file, line) in zip(Self.files, lines) where expired.contains(file) {
            #expect(line["status"] as? String == "unverified", "\(file)")
            let error = line["error"] as? [String: Any]
            #expect(error?["code"] as? String == "invalidCertificateChain", "\(file)")
            #expect((error?["message"] as? String)?.contains("expired") == true, "\(file): \(String(describing: error))")
            // The receipt is still decoded and shown.
            #expect((line["payload"] as? [String: Any])?["bundleId"] is String, "\(file)")
        }
        #expect(!expired.isEmpty)
        #expect(output.status == (expired.isEmpty ? 0 : 1))
    }
}
