import AppStoreVerificationTestSupport
import Foundation
import Testing

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
        let output = try Tool.run(["--type", "app-receipt", "--format", "json"] + Self.rootArguments, stdin: Data(input.utf8))
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
        let defaultRoot = try Tool.run(["--format", "json"], stdin: Data(input.utf8))
        #expect(defaultRoot.jsonLines.first?["type"] as? String == "app-receipt")
        #expect((defaultRoot.jsonLines.first?["error"] as? [String: Any])?["code"] as? String == "invalidCertificateChain")
        #expect(defaultRoot.status == 1)
    }

    @Test("auto recognises receipts by their PKCS#7 header, whatever the length's size: 79 KB (MIM…), BER (MIA…), DER (MII…)")
    func autoDetectionByHeader() throws {
        let files = ["valid-huge-set.der", "valid-ber-indefinite.der", "valid-sha256.der", "valid-base64.b64"]
        let lines = try files.map(Self.line)
        #expect(lines[0].hasPrefix("MIM"), "a 3-byte length: \(lines[0].prefix(8))")
        #expect(lines[1].hasPrefix("MIA"), "an indefinite length: \(lines[1].prefix(8))")
        let input = lines.joined(separator: "\n") + "\n"
        // --root in auto mode replaces the receipt roots too: the minted receipts verify under the test root.
        let output = try Tool.run(["--format", "json", "--root", "TestVectors/receipts/pki/root.der"], stdin: Data(input.utf8))
        let results = output.jsonLines
        try #require(results.count == files.count, "\(output.stdout) \(output.stderr)")
        for (file, result) in zip(files, results) {
            #expect(result["type"] as? String == "app-receipt", "\(file)")
            #expect(result["status"] as? String == "verified", "\(file): \(String(describing: result["error"]))")
        }
        #expect(output.status == 0)
    }

    @Test("auto takes a line for a receipt only with a SEQUENCE and the signedData OID at its start and no dot in it")
    func autoDetectionRefusesLookAlikes() throws {
        let receipt = try Self.line("valid-sha256.der")
        let certificate = try Data(contentsOf: TestPaths.testVector("receipts/pki/root.der")).base64EncodedString()
        let lookAlikes = [
            certificate,                                         // MII…, a SEQUENCE, but a certificate
            receipt + ".e30.sig",                                // a receipt's prefix in a line with dots
            receipt.replacingCharacters(in: receipt.index(receipt.startIndex, offsetBy: 10)..<receipt.index(receipt.startIndex, offsetBy: 11), with: "-"),  // base64url in the decoded prefix
            "MIIB",                                              // too short to hold the header
            String(receipt.prefix(23)) + "=",                    // padding inside the decoded prefix
        ]
        #expect(certificate.hasPrefix("MII"))
        let output = try Tool.run(["--format", "json", "--root", "TestVectors/receipts/pki/root.der"],
                                              stdin: Data((lookAlikes.joined(separator: "\n") + "\n").utf8))
        let results = output.jsonLines
        try #require(results.count == lookAlikes.count, "\(output.stdout) \(output.stderr)")
        for (index, result) in results.enumerated() {
            #expect(result["type"] as? String != "app-receipt", "look-alike \(index) was taken for a receipt")
            #expect(result["status"] as? String != "verified", "look-alike \(index)")
            #expect((result["error"] as? [String: Any])?["code"] as? String != "malformedReceipt", "look-alike \(index)")
        }
    }

    @Test("--root in auto mode replaces both the JWS and the receipt roots: each kind's chain must end at a given root")
    func autoRootReplacesBoth() throws {
        let receipt = try Self.line("valid-sha256.der")
        let jws = try TestPaths.text(TestPaths.testVector("jws/transaction-valid.jws"))
        let input = Data((receipt + "\n" + jws + "\n").utf8)
        func statuses(_ roots: [String]) throws -> [String?] {
            let output = try Tool.run(["--format", "json"] + roots.flatMap { ["--root", $0] }, stdin: input)
            return output.jsonLines.map { $0["status"] as? String }
        }
        #expect(try statuses(["TestVectors/receipts/pki/root.der", "TestVectors/pki/root.der"]) == ["verified", "verified"])
        // The receipt root alone: the JWS root G3 is replaced too, and the test JWS chain ends elsewhere.
        #expect(try statuses(["TestVectors/receipts/pki/root.der"]) == ["verified", "unverified"])
        // The JWS test root alone: the receipt root (Apple Root CA by default) is replaced as well.
        #expect(try statuses(["TestVectors/pki/root.der"]) == ["unverified", "verified"])
    }

    @Test("--effective-date created is the default, now and a fixed instant apply to receipts")
    func effectiveDates() throws {
        let input = Data((try Self.line("valid-sha256.der") + "\n").utf8)
        for (date, status) in [("created", "verified"), ("signed", "verified"), ("2028-01-01T00:00:00Z", "unverified")] {
            let output = try Tool.run(["--type", "app-receipt", "--format", "json", "--effective-date", date] + Self.rootArguments, stdin: input)
            #expect(output.jsonLines.first?["status"] as? String == status, "\(date): \(output.stdout)")
        }
    }

    @Test("--xcode-certificate trusts the StoreKit receipt certificate", .enabled(if: TestPaths.sharedIsPresent, sharedAbsentComment))
    func xcodeReceipt() throws {
        let receipt = try TestPaths.text(TestPaths.sharedFile("vectors/apple/xcode/xcode-app-receipt-with-transaction")).replacingOccurrences(of: "\n", with: "")
        let certificate = TestPaths.sharedFile("apple/StoreKitTestCertificate.cer").path
        let without = try Tool.run(["--format", "json"], stdin: Data((receipt + "\n").utf8))
        #expect(without.jsonLines.first?["status"] as? String == "unverified")
        for type in ["app-receipt", "auto"] {
            let with = try Tool.run(["--type", type, "--format", "json", "--xcode-certificate", certificate], stdin: Data((receipt + "\n").utf8))
            #expect(with.jsonLines.first?["status"] as? String == "verified", "\(type): \(with.stdout) \(with.stderr)")
            #expect(with.status == 0)
        }
    }

    @Test("every minted receipt gets its manifest verdict through the CLI, with flags equivalent to its manifest options (one process per option set)",
          arguments: ReceiptVectorCLIGroup.all)
    func manifestThroughCLI(_ group: ReceiptVectorCLIGroup) throws {
        let input = try group.vectors.map(ReceiptVectorCLIGroup.line).joined(separator: "\n") + "\n"
        let output = try Tool.run(group.arguments + ["--format", "json"], stdin: Data(input.utf8))
        let lines = output.jsonLines
        try #require(lines.count == group.vectors.count, "\(output.stdout) \(output.stderr)")
        for (vector, line) in zip(group.vectors, lines) {
            #expect(line["type"] as? String == "app-receipt", "\(vector.name)")
            #expect(line["status"] as? String == vector.expected.status, "\(vector.name): \(vector.description)")
            #expect((line["error"] as? [String: Any])?["code"] as? String == vector.expected.code, "\(vector.name): \(vector.description)")
        }
        #expect(output.status == group.expectedExitStatus, "\(output.stderr)")
    }

    @Test("the CLI groups cover every vector of the manifest in a few processes")
    func manifestGroupsCoverEveryVector() {
        let grouped = ReceiptVectorCLIGroup.all.flatMap(\.vectors).map(\.name)
        #expect(grouped.sorted() == ReceiptVector.all.map(\.name).sorted())
        #expect(grouped.count >= 67)
        #expect(ReceiptVectorCLIGroup.all.count <= 12, "\(ReceiptVectorCLIGroup.all.map(\.testDescription))")
    }

    @Test("text output shows the receipt's fields")
    func textOutput() throws {
        let input = Data((try Self.line("valid-sha256.der") + "\n").utf8)
        let output = try Tool.run(["--type", "app-receipt"] + Self.rootArguments, stdin: input)
        #expect(output.status == 0)
        #expect(output.stdout.contains("verified: an app receipt"))
        #expect(output.stdout.contains("receiptCreationDate"))
        #expect(output.stdout.contains("2025-06-01T12:00:00"))
    }
}
