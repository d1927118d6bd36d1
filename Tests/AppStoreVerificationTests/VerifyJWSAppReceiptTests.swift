import Foundation
import Testing
@testable import AppStoreVerification

/// `verify-jws --type app-receipt` and `auto` on receipt lines.
@Suite("verify-jws on app receipts")
struct VerifyJWSAppReceiptTests {
    static func line(_ vector: String) throws -> String {
        let url = TestPaths.testVector("receipts/\(vector)")
        if vector.hasSuffix(".b64") { return try TestPaths.text(url) }
        return try Data(contentsOf: url).base64EncodedString()
    }

    static let rootArguments = ["--root", "TestVectors/receipts/pki/root.der", "--bundle-id", "com.example.app"]

    @Test("--type app-receipt prints each receipt's verdict and payload as JSON, --root replacing the receipt root")
    func typeAppReceipt() throws {
        let input = try ["valid-sha256.der", "tampered-content.der", "two-signers.der"].map(Self.line).joined(separator: "\n") + "\n"
        let output = try VerifyJWSProcess.run(["--type", "app-receipt", "--format", "json"] + Self.rootArguments, stdin: Data(input.utf8))
        let lines = output.jsonLines
        #expect(lines.count == 3, "\(output.stdout) \(output.stderr)")
        guard lines.count == 3 else { return }
        #expect(lines[0]["status"] as? String == "verified")
        #expect(lines[0]["type"] as? String == "app-receipt")
        let payload = try #require(lines[0]["payload"] as? [String: Any])
        #expect(payload["bundleId"] as? String == "com.example.app")
        #expect((payload["receiptCreationDate"] as? NSNumber)?.int64Value == 1_748_779_200_000)
        #expect((payload["inApp"] as? [[String: Any]])?.first?["transactionId"] as? String == "2000000000000001")
        #expect(lines[1]["status"] as? String == "unverified")
        #expect((lines[1]["error"] as? [String: Any])?["code"] as? String == "invalidSignature")
        #expect(lines[2]["status"] as? String == "malformed")
        #expect((lines[2]["error"] as? [String: Any])?["code"] as? String == "malformedReceipt")
        #expect(output.status == 2)
    }

    @Test("auto recognises base64 receipt lines beside JWS lines; the Apple root is the default receipt root")
    func autoDetection() throws {
        let input = try Self.line("valid-base64.b64") + "\n"
        // Without --root the receipt is checked against Apple Root CA, which does not anchor the test PKI.
        let defaultRoot = try VerifyJWSProcess.run(["--format", "json"], stdin: Data(input.utf8))
        #expect(defaultRoot.jsonLines.first?["type"] as? String == "app-receipt")
        #expect((defaultRoot.jsonLines.first?["error"] as? [String: Any])?["code"] as? String == "invalidCertificateChain")
        #expect(defaultRoot.status == 1)
    }

    @Test("--effective-date created is the default, now and a fixed instant apply to receipts")
    func effectiveDates() throws {
        let input = Data((try Self.line("valid-sha256.der") + "\n").utf8)
        for (date, status) in [("created", "verified"), ("signed", "verified"), ("2028-01-01T00:00:00Z", "unverified")] {
            let output = try VerifyJWSProcess.run(["--type", "app-receipt", "--format", "json", "--effective-date", date] + Self.rootArguments, stdin: input)
            #expect(output.jsonLines.first?["status"] as? String == status, "\(date): \(output.stdout)")
        }
    }

    @Test("--xcode-certificate trusts the StoreKit receipt certificate", .enabled(if: TestPaths.sharedIsPresent, sharedAbsentComment))
    func xcodeReceipt() throws {
        let receipt = try TestPaths.text(TestPaths.sharedFile("vectors/apple/xcode/xcode-app-receipt-with-transaction")).replacingOccurrences(of: "\n", with: "")
        let certificate = TestPaths.sharedFile("apple/StoreKitTestCertificate.cer").path
        let without = try VerifyJWSProcess.run(["--format", "json"], stdin: Data((receipt + "\n").utf8))
        #expect(without.jsonLines.first?["status"] as? String == "unverified")
        for type in ["app-receipt", "auto"] {
            let with = try VerifyJWSProcess.run(["--type", type, "--format", "json", "--xcode-certificate", certificate], stdin: Data((receipt + "\n").utf8))
            #expect(with.jsonLines.first?["status"] as? String == "verified", "\(type): \(with.stdout) \(with.stderr)")
            #expect(with.status == 0)
        }
    }

    @Test("every minted receipt with the default options gets its manifest verdict through the CLI too")
    func manifestThroughCLI() throws {
        let vectors = ReceiptVector.all.filter {
            $0.options.receiptRoots == ["receipts/pki/root.der"] && $0.options.bundleId == "com.example.app"
                && $0.options.environment == "Sandbox" && $0.options.effectiveDate == nil
                && $0.options.xcodeReceiptCertificate == nil && $0.options.maximumInputLength == nil
        }
        #expect(vectors.count >= 40)
        let input = try vectors.map { try Self.line(String($0.file.dropFirst("receipts/".count))) }.joined(separator: "\n") + "\n"
        let output = try VerifyJWSProcess.run(
            ["--type", "app-receipt", "--format", "json", "--environment", "Sandbox"] + Self.rootArguments, stdin: Data(input.utf8))
        let lines = output.jsonLines
        try #require(lines.count == vectors.count, "\(output.stderr)")
        for (vector, line) in zip(vectors, lines) {
            #expect(line["status"] as? String == vector.expected.status, "\(vector.name)")
            #expect((line["error"] as? [String: Any])?["code"] as? String == vector.expected.code, "\(vector.name)")
        }
    }

    @Test("text output shows the receipt's fields")
    func textOutput() throws {
        let input = Data((try Self.line("valid-sha256.der") + "\n").utf8)
        let output = try VerifyJWSProcess.run(["--type", "app-receipt"] + Self.rootArguments, stdin: input)
        #expect(output.status == 0)
        #expect(output.stdout.contains("verified: an app receipt"))
        #expect(output.stdout.contains("receiptCreationDate"))
        #expect(output.stdout.contains("2025-06-01T12:00:00"))
    }
}
