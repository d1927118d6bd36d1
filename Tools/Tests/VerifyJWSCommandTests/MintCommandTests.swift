import AppStoreVerificationTestSupport
import Foundation
import Testing

/// `verify-jws test-pki create` and `verify-jws mint`: minted data verifies through the tool.
@Suite(.serialized) struct MintCommandTests {
    static let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mint-cli-\(UUID().uuidString)")

    /// The PKI directory, created once by `verify-jws test-pki create` (it holds private keys:
    /// deleted when the test process ends).
    static let pki: Result<String, any Error> = Result {
        try ProcessRunner.deleteWhenThisProcessEnds(directory)
        let created = try Tool.run(["test-pki", "create", directory.path])
        guard created.status == 0 else { throw CommandFailure(text: created.stderr) }
        return directory.path
    }

    struct CommandFailure: Error { let text: String }

    static let transaction = #"{"transactionId":"1","originalTransactionId":"1","bundleId":"com.example.app","productId":"p","purchaseDate":1772366340000,"type":"Consumable","environment":"Sandbox","signedDate":1772366400000,"unknownMember":[1,2]}"#

    @Test func testPKICreateWritesTheFilesVerifyReads() throws {
        let directory = try Self.pki.get()
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: directory))
        #expect(names.isSuperset(of: ["root.der", "intermediate.der", "leaf.der", "leaf.key", "receipt-root.der", "receipt-intermediate.der", "receipt-leaf.der", "receipt-leaf.key"]))
    }

    @Test(arguments: [
        ("transaction", transaction),
        ("renewal-info", #"{"originalTransactionId":"1","productId":"p","environment":"Sandbox","signedDate":1772366400000}"#),
        ("app-transaction", #"{"receiptType":"Sandbox","bundleId":"com.example.app","signedDate":1772366400000}"#),
        ("realtime-request", #"{"originalTransactionId":"1","productId":"p","environment":"Sandbox","signedDate":1772366400000}"#),
        ("notification", #"{"notificationType":"REFUND","data":{"environment":"Sandbox","bundleId":"com.example.app","signedTransactionInfo":\#(transaction)},"signedDate":1772366400000}"#),
    ])
    func mintedLinesVerifyThroughThePipe(kind: String, payload: String) throws {
        let directory = try Self.pki.get()
        let minted = try Tool.run(["mint", kind, "--pki", directory, "-"], stdin: Data((payload + "\n\n" + payload + "\n").utf8))
        #expect(minted.status == 0, "\(minted.stderr)")
        let lines = minted.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        // The tool's --type names renewal info 'renewal'.
        let type = kind == "renewal-info" ? "renewal" : kind
        let verified = try Tool.run(["--root", directory + "/root.der", "--type", type, "--format", "json", "-"], stdin: Data(minted.stdout.utf8))
        #expect(verified.status == 0, "\(verified.stdout) \(verified.stderr)")
        if kind == "transaction", let first = lines.first {
            // Signed exactly as given.
            let payloadSegment = first.split(separator: ".")[1]
            var base64 = payloadSegment.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            while base64.count % 4 != 0 { base64 += "=" }
            #expect(Data(base64Encoded: base64).map { String(decoding: $0, as: UTF8.self) } == Self.transaction)
        }
        if kind == "notification" {
            #expect(verified.stdout.contains("signedTransactionInfo"))
        }
    }

    @Test func mintedAppReceiptsVerifyWithTheReceiptRoot() throws {
        let directory = try Self.pki.get()
        let receipt = #"{"environment":"ProductionSandbox","bundleId":"com.example.app","receiptCreationDate":1772366400000,"inApp":[{"productId":"p","transactionId":"3","purchaseDate":1772366400000}]}"#
        let minted = try Tool.run(["mint", "app-receipt", "--pki", directory], stdin: Data((receipt + "\n").utf8))
        #expect(minted.status == 0, "\(minted.stderr)")
        let verified = try Tool.run(["--root", directory + "/receipt-root.der", "--type", "app-receipt", "-"], stdin: Data(minted.stdout.utf8))
        #expect(verified.status == 0, "\(verified.stdout) \(verified.stderr)")
    }

    @Test func badPayloadJSONNamesTheLineAndExitsTwo() throws {
        let directory = try Self.pki.get()
        let minted = try Tool.run(["mint", "transaction", "--pki", directory, "-"], stdin: Data("{\"a\":1}\n{\"a\":\n".utf8))
        #expect(minted.status == 2)
        #expect(minted.stderr.contains("line 2"))
        #expect(minted.stderr.contains("not a JSON object"))
    }

    @Test func anExpiredPKIsDataIsRefused() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mint-cli-expired-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try Tool.run(["test-pki", "create", directory.path, "--expired"]).status == 0)
        let minted = try Tool.run(["mint", "transaction", "--pki", directory.path], stdin: Data((Self.transaction + "\n").utf8))
        #expect(minted.status == 0, "\(minted.stderr)")
        let verified = try Tool.run(["--root", directory.path + "/root.der", "-"], stdin: Data(minted.stdout.utf8))
        #expect(verified.status == 1)
        #expect(verified.stdout.contains("invalidCertificateChain"))
    }

    @Test func testPKICreateRefusesToReplaceAPKIWithoutForce() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mint-cli-force-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try Tool.run(["test-pki", "create", directory.path]).status == 0)
        let root = try Data(contentsOf: directory.appendingPathComponent("root.der"))
        let key = try Data(contentsOf: directory.appendingPathComponent("leaf.key"))

        // A second create names the PKI already there and --force, exits 2, and leaves every file as it was.
        let refused = try Tool.run(["test-pki", "create", directory.path])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("already holds a test PKI"))
        #expect(refused.stderr.contains("--force"))
        #expect(try Data(contentsOf: directory.appendingPathComponent("root.der")) == root)
        #expect(try Data(contentsOf: directory.appendingPathComponent("leaf.key")) == key)

        // With --force, a new PKI replaces it: another root.
        let forced = try Tool.run(["test-pki", "create", directory.path, "--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try Data(contentsOf: directory.appendingPathComponent("root.der")) != root)
    }

    @Test func testPKICreateWritesIntoADirectoryWithoutAPKI() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mint-cli-other-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data("notes\n".utf8).write(to: directory.appendingPathComponent("README"))
        let created = try Tool.run(["test-pki", "create", directory.path])
        #expect(created.status == 0, "\(created.stderr)")
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("root.der").path))
    }

    @Test func aMissingPKIDirectoryIsExplained() throws {
        let minted = try Tool.run(["mint", "transaction", "--pki", "/nonexistent-pki-dir"], stdin: Data((Self.transaction + "\n").utf8))
        #expect(minted.status == 2)
        #expect(minted.stderr.contains("test-pki create"))
    }
}
