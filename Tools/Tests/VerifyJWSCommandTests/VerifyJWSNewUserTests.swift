import AppStoreVerificationTestSupport
import Foundation
import Testing

/// What a new user of `verify-jws` runs into first: help that lists every subcommand, `help X`,
/// JSON verdicts that say which input they are about, and a receipt file straight from an app.
@Suite("verify-jws: help, JSON locations, DER receipt files")
struct VerifyJWSNewUserTests {
    @Test("the top-level help lists every subcommand; 'help entitlements' is the subcommand's help")
    func help() throws {
        let top = try Tool.run(["--help"])
        #expect(top.status == 0)
        for name in ["entitlements", "sign"] {
            #expect(top.stdout.contains("  \(name) "), "\(name) missing from: \(top.stdout)")
        }
        for arguments in [["help", "entitlements"], ["entitlements", "--help"]] {
            let output = try Tool.run(arguments)
            #expect(output.status == 0, "\(arguments): \(output.stderr)")
            #expect(output.stdout.contains("USAGE: verify-jws entitlements"), "\(arguments): \(output.stdout)")
            // Its --root is about JWS only: the subcommand takes no receipts.
            #expect(!output.stdout.contains("app-receipt"), "\(arguments): \(output.stdout)")
        }
        let sign = try Tool.run(["help", "sign", "promotional-offer"])
        #expect(sign.status == 0)
        #expect(sign.stdout.contains("USAGE: verify-jws sign promotional-offer"), "\(sign.stdout)")
        let helpAlone = try Tool.run(["help"])
        #expect(helpAlone.status == 0)
        #expect(helpAlone.stdout.contains("USAGE: verify-jws"))
    }

    @Test("every JSON line names its file and line, across blank lines and several files")
    func jsonLocations() throws {
        let jws = try TestPaths.text(TestPaths.testVector("jws/transaction-valid.jws"))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("verify-jws-locations-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = directory.appendingPathComponent("first.txt"), second = directory.appendingPathComponent("second.txt")
        try Data("\n\(jws)\n\nnot a jws\n".utf8).write(to: first)
        try Data("\n\n\n\(jws)\n".utf8).write(to: second)
        let output = try Tool.run(["--root", "TestVectors/pki/root.der", "--format", "json", first.path, second.path])
        #expect(output.status == 2)
        let located = output.jsonLines.map { "\($0["file"] as? String ?? "?"):\($0["line"] as? Int ?? 0):\($0["status"] as? String ?? "?")" }
        #expect(located == ["\(first.path):2:verified", "\(first.path):4:malformed", "\(second.path):4:verified"], "\(output.stdout)")
        let stdin = try Tool.run(["--root", "TestVectors/pki/root.der", "--format", "json"], stdin: Data("\n\(jws)\n".utf8))
        #expect(stdin.jsonLines.first?["file"] as? String == "-")
        #expect(stdin.jsonLines.first?["line"] as? Int == 2)
    }

    @Test("a DER receipt file is read whole with --type app-receipt and auto, from a file or standard input")
    func derReceiptFile() throws {
        let receipt = "TestVectors/receipts/valid-sha256.der"
        for type in ["app-receipt", "auto"] {
            let output = try Tool.run(["--type", type, "--root", "TestVectors/receipts/pki/root.der", "--format", "json", receipt])
            #expect(output.status == 0, "--type \(type): \(output.stdout) \(output.stderr)")
            #expect(output.jsonLines.count == 1)
            #expect(output.jsonLines.first?["type"] as? String == "app-receipt")
            #expect(output.jsonLines.first?["file"] as? String == receipt)
        }
        let piped = try Tool.run(["--root", "TestVectors/receipts/pki/root.der", "--format", "json", "-"],
                                             stdin: try Data(contentsOf: TestPaths.testVector("receipts/valid-sha256.der")))
        #expect(piped.status == 0, "\(piped.stdout) \(piped.stderr)")
        #expect(piped.jsonLines.count == 1)
        // Over the limit: one inputTooLarge verdict, not the receipt's bytes split into lines.
        let tooLarge = try Tool.run(["--type", "app-receipt", "--max-input-bytes", "1000", "--format", "json", receipt])
        #expect(tooLarge.jsonLines.count == 1)
        #expect((tooLarge.jsonLines.first?["error"] as? [String: Any])?["code"] as? String == "inputTooLarge")
        // A type that takes no receipts: one line on standard error that says how to read it.
        let wrongType = try Tool.run(["--type", "transaction", receipt])
        #expect(wrongType.status == 2)
        #expect(wrongType.stderr.contains("--type app-receipt"), "\(wrongType.stderr)")
    }
}
