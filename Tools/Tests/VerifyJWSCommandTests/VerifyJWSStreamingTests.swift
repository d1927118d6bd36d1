import AppStoreVerificationTestSupport
import Foundation
import Testing

@Suite("verify-jws streaming and edges")
struct VerifyJWSStreamingTests {
    static let testRoot = ["--root", "TestVectors/pki/root.der"]

    static func vector(_ name: String) throws -> String {
        try TestPaths.text(TestPaths.testVector("jws/\(name).jws"))
    }

    @Test("a line written to standard input is answered before standard input is closed", arguments: ["1", "2"])
    func answersBeforeEndOfInput(jobs: String) throws {
        let tool = try ProcessRunner.Interactive(Tool.executable, Self.testRoot + ["--format", "json", "--jobs", jobs, "-"],
                                                 in: TestPaths.repositoryRoot)
        try tool.write(try Self.vector("transaction-valid") + "\n")
        let first = tool.lines(1)
        try tool.write(try Self.vector("tampered-payload") + "\n")
        let second = tool.lines(2)
        let status = tool.finish()
        let firstLine = try #require(first?.first, "no verdict for the first line while standard input was open")
        #expect(firstLine.contains("\"status\":\"verified\""))
        #expect(second?.last?.contains("\"status\":\"unverified\"") == true)
        #expect(status == 1)
    }

    @Test("a tool that exits before reading its input does not kill the test process (SIGPIPE ignored; the write fails with EPIPE)")
    func earlyExitWhileWriting() throws {
        // An unknown option: the tool exits at once, 16 MB of input unread; the pipe holds 64 KB.
        let input = Data(repeating: UInt8(ascii: "a"), count: 16 << 20)
        let output = try Tool.runProcess(["--no-such-option", "-"], stdin: input)
        #expect(output.status != 0)
        #expect(output.stderr.contains("no-such-option"), "\(output.stderr)")
        // And an interactive write after the tool has gone throws instead of raising SIGPIPE.
        let tool = try ProcessRunner.Interactive(Tool.executable, ["--no-such-option", "-"], in: TestPaths.repositoryRoot)
        #expect(tool.lines(1) == nil)  // standard output ended: the tool has gone
        #expect(throws: (any Error).self) { try tool.write(String(repeating: "a", count: 1 << 20)) }
        #expect(tool.finish() != 0)
    }

    @Test("empty input exits 2 and says 'no input'", arguments: ["", "\n  \n\r\n"])
    func emptyInput(text: String) throws {
        let output = try Tool.run(Self.testRoot + ["-"], stdin: Data(text.utf8))
        #expect(output.status == 2)
        #expect(output.stderr.contains("no input"))
        #expect(output.stdout.isEmpty)
    }

    @Test("a directory or a missing file is one clear line on standard error, not a usage dump", arguments: [
        ("TestVectors", "directory"), ("no/such/input.jws", "No such file"),
    ])
    func unreadableInput(path: String, reason: String) throws {
        let output = try Tool.run(Self.testRoot + [path], stdin: Data())
        #expect(output.status == 2)
        let lines = output.stderr.split(separator: "\n")
        #expect(lines.count == 1, "stderr: \(output.stderr)")
        #expect(output.stderr.contains(path) && output.stderr.contains(reason), "stderr: \(output.stderr)")
        #expect(!output.stderr.contains("USAGE") && !output.stderr.contains("Usage"))
        #expect(output.stdout.isEmpty)
    }

    @Test("binary input is reported once as 'not text: looks binary'", arguments: [
        Data([0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x01, 0x00]) + Data(repeating: 0x0A, count: 300) + Data(repeating: 0x00, count: 5000),
        Data((0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 131 | 0x80) }),
    ])
    func binaryInput(bytes: Data) throws {
        let output = try Tool.run(Self.testRoot + ["--format", "json", "-"], stdin: bytes)
        #expect(output.status == 2)
        #expect(output.stderr.components(separatedBy: "not text: looks binary").count == 2, "stderr: \(output.stderr)")
        #expect(output.stdout.isEmpty)
    }

    @Test("--max-input-bytes: a longer line is inputTooLarge, skipped unread, and the next line still verifies")
    func maxInputBytes() throws {
        let valid = try Self.vector("transaction-valid")
        let long = String(repeating: "A", count: 200_000)
        let input = "\(long)\n\(valid)\n"
        let limit = String(valid.utf8.count + 10)
        let output = try Tool.run(Self.testRoot + ["--format", "json", "--max-input-bytes", limit, "-"], stdin: Data(input.utf8))
        let lines = output.jsonLines
        try #require(lines.count == 2, "stdout: \(output.stdout.prefix(500))")
        #expect((lines[0]["error"] as? [String: Any])?["code"] as? String == "inputTooLarge")
        #expect(((lines[0]["error"] as? [String: Any])?["message"] as? String)?.contains("--max-input-bytes") == true)
        #expect(lines[1]["status"] as? String == "verified")
        #expect(output.status == 2)

        let tight = try Tool.run(Self.testRoot + ["--format", "json", "--max-input-bytes", "100", "TestVectors/jws/transaction-valid.jws"])
        #expect((tight.jsonLines.first?["error"] as? [String: Any])?["code"] as? String == "inputTooLarge")
        #expect(try Tool.run(["--max-input-bytes", "0"], stdin: Data()).status == 2)
    }

    @Test("--help shows 'signed' as the effective-date default and lists the environments once")
    func help() throws {
        let output = try Tool.run(["--help"], stdin: Data())
        #expect(output.status == 0)
        #expect(output.stdout.contains("default: signed"), "help: \(output.stdout)")
        #expect(!output.stdout.contains("EffectiveDateOption"))
        #expect(!output.stdout.contains("EffectiveDatePolicy"))
        #expect(output.stdout.components(separatedBy: "LocalTesting").count == 2, "help: \(output.stdout)")
        #expect(output.stdout.contains("--max-input-bytes"))
    }

    @Test("--version prints the package version and the OpenSSL version")
    func version() throws {
        let output = try Tool.run(["--version"], stdin: Data())
        #expect(output.status == 0)
        #expect(output.stdout.hasPrefix("verify-jws "))
        #expect(output.stdout.contains("OpenSSL 3"), "stdout: \(output.stdout)")
    }

    @Test("a pretty-printed notification body is explained once ('one JSON object per line'), and the next line still verifies")
    func prettyPrintedBody() throws {
        let jws = try Self.vector("notification-valid")
        let pretty = String(decoding: try JSONSerialization.data(withJSONObject: ["signedPayload": jws], options: [.prettyPrinted]), as: UTF8.self)
        #expect(pretty.contains("\n"))
        let input = pretty + "\n" + (try Self.vector("transaction-valid")) + "\n"
        let output = try Tool.run(Self.testRoot + ["--format", "json", "-"], stdin: Data(input.utf8))
        let lines = output.jsonLines
        try #require(lines.count == 2, "stdout: \(output.stdout.prefix(800))")
        let error = try #require(lines[0]["error"] as? [String: Any])
        #expect(error["code"] as? String == "multiLineJSON")
        #expect((error["message"] as? String)?.contains("one JSON object per line") == true)
        #expect(lines[1]["status"] as? String == "verified")
        #expect(output.status == 2)

        let text = try Tool.run(Self.testRoot + ["-"], stdin: Data(pretty.utf8))
        #expect(text.stdout.contains("stdin:1-3"), "stdout: \(text.stdout)")
    }

    @Test("a truncated one-line body does not swallow the JWS lines after it")
    func truncatedBody() throws {
        let valid = try Self.vector("transaction-valid")
        let input = "{\"signedPayload\":\"eyJhbGciOi\n\(valid)\n"
        let output = try Tool.run(Self.testRoot + ["--format", "json", "-"], stdin: Data(input.utf8))
        #expect(output.jsonLines.map { $0["status"] as? String } == ["malformed", "verified"])
    }

    @Test("--environment Production without --app-apple-id names --app-apple-id")
    func productionNeedsAppAppleId() throws {
        let output = try Tool.run(["--environment", "Production", "TestVectors/jws/transaction-valid.jws"], stdin: Data())
        #expect(output.status == 2)
        #expect(output.stderr.contains("--app-apple-id"), "stderr: \(output.stderr)")
    }

    @Test("the text format renders the typed payload: fields in order, dates as ISO 8601 and milliseconds")
    func textFormat() throws {
        let output = try Tool.run(Self.testRoot + ["TestVectors/jws/transaction-valid.jws"])
        #expect(output.status == 0)
        let lines = output.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("✔ verified: ") == true)
        let purchase = try #require(lines.first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("purchaseDate ") })
        #expect(purchase.hasSuffix("2026-03-01T11:59:00.000Z  (1772366340000)"), "line: \(purchase)")
        #expect(lines.contains { $0.contains("transactionId") && $0.hasSuffix("\"2000000123456789\"") })
        #expect(lines.contains { $0.contains("type") && $0.hasSuffix("\"Auto-Renewable Subscription\"") })
        #expect(lines.contains { $0.contains("quantity") && $0.hasSuffix(" 1") })
        let transactionIndex = try #require(lines.firstIndex { $0.contains("transactionId") })
        let purchaseIndex = try #require(lines.firstIndex { $0.contains("purchaseDate") })
        #expect(transactionIndex < purchaseIndex)

        let notification = try Tool.run(Self.testRoot + ["TestVectors/jws/notification-valid.jws"])
        #expect(notification.status == 0)
        #expect(notification.stdout.contains("notificationType"))
        #expect(notification.stdout.contains("✔ verified: a transaction (signedTransactionInfo)"))
        // The nested JWS is shown as its own verdict, not as its compact text.
        #expect(!notification.stdout.contains("eyJ"))
    }
}
