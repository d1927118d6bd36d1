import AppStoreVerificationTestSupport
import Foundation
import Testing

@Suite("verify-jws")
struct VerifyJWSCommandTests {
    static let testRoot = ["--root", "TestVectors/pki/root.der"]

    @Test("every shipped vector gets its expected status and code, and the matching exit status", arguments: ManifestVector.all)
    func manifestVector(_ vector: ManifestVector) throws {
        let output = try Tool.run(Tool.arguments(for: vector))
        let lines = output.jsonLines
        try #require(lines.count == 1, "stdout: \(output.stdout) stderr: \(output.stderr)")
        #expect(lines[0]["status"] as? String == vector.expected.status)
        let error = lines[0]["error"] as? [String: Any]
        #expect(error?["code"] as? String == vector.expected.code)
        let expectedExit: Int32 = ["verified": 0, "unverified": 1, "malformed": 2][vector.expected.status] ?? -1
        #expect(output.status == expectedExit)
        if vector.expected.status == "malformed" {
            #expect(lines[0]["payload"] is NSNull)
        } else {
            #expect(lines[0]["payload"] is [String: Any])
        }
    }

    @Test("the README's run command verifies a shipped vector and exits 0")
    func readmeCommand() throws {
        // As users run it: the binary, its exit status.
        let output = try Tool.runProcess(Self.testRoot + ["TestVectors/jws/transaction-valid.jws"])
        #expect(output.status == 0)
        #expect(output.stdout.contains("verified"))
        #expect(output.stdout.contains("transactionId"))
    }

    @Test("several files and standard input: one JSON object per non-blank line, in input order, worst exit status")
    func manyLines() throws {
        let valid = try TestPaths.text(TestPaths.testVector("jws/transaction-valid.jws"))
        let tampered = try TestPaths.text(TestPaths.testVector("jws/tampered-payload.jws"))
        let input = "\n\(valid)\r\n\n\(tampered)\n   \n\(valid)\n"
        let output = try Tool.run(Self.testRoot + ["--format", "json", "--bundle-id", "com.example.app", "-"], stdin: Data(input.utf8))
        #expect(output.jsonLines.map { $0["status"] as? String } == ["verified", "unverified", "verified"])
        #expect(output.status == 1)

        let both = try Tool.run(Self.testRoot + ["--format", "json", "TestVectors/jws/transaction-valid.jws", "TestVectors/jws/two-segments.jws", "TestVectors/jws/renewal-valid.jws"])
        #expect(both.jsonLines.map { $0["status"] as? String } == ["verified", "malformed", "verified"])
        #expect(both.jsonLines.map { $0["type"] as? String } == ["transaction", "transaction", "renewal"])
        #expect(both.status == 2)
    }

    @Test("--jobs 2 gives the same output, in the same order, as --jobs 1")
    func parallelJobsKeepOrder() throws {
        // Lines of every verdict, interleaved, more than one batch's worth of work per worker.
        let names = ["transaction-valid", "tampered-payload", "two-segments", "renewal-valid", "expired-leaf", "notification-valid"]
        let texts = try names.map { try TestPaths.text(TestPaths.testVector("jws/\($0).jws")) }
        let input = (0..<300).map { texts[$0 % texts.count] }.joined(separator: "\n")
        let one = try Tool.run(Self.testRoot + ["--format", "json", "--jobs", "1", "-"], stdin: Data(input.utf8))
        let two = try Tool.run(Self.testRoot + ["--format", "json", "--jobs", "2", "-"], stdin: Data(input.utf8))
        #expect(one.jsonLines.count == 300)
        #expect(one.stdout == two.stdout)
        #expect(one.status == 2 && two.status == 2)
        #expect(try Tool.run(["--jobs", "0"], stdin: Data()).status == 2)
    }

    @Test("a notification body as Apple POSTs it is accepted and its nested data shown verified")
    func notificationBody() throws {
        let jws = try TestPaths.text(TestPaths.testVector("jws/notification-valid.jws"))
        let body = String(decoding: try JSONSerialization.data(withJSONObject: ["signedPayload": jws]), as: UTF8.self)
        let output = try Tool.run(Self.testRoot + ["--format", "json"], stdin: Data(body.utf8))
        let line = try #require(output.jsonLines.first)
        #expect(line["status"] as? String == "verified")
        #expect(line["type"] as? String == "notification")
        let nested = try #require(line["nested"] as? [String: Any])
        let transaction = try #require(nested["signedTransactionInfo"] as? [String: Any])
        #expect(transaction["status"] as? String == "verified")
        #expect((transaction["payload"] as? [String: Any])?["transactionId"] as? String == "2000000123456789")
        #expect(output.status == 0)

        let text = try Tool.run(Self.testRoot + ["TestVectors/jws/notification-tampered-inner.jws"])
        #expect(text.status == 1)
        #expect(text.stdout.contains("signedTransactionInfo"))
        #expect(text.stdout.contains("invalidSignature"))
    }

    @Test("notification bodies are read with the library's strict reader: a duplicate signedPayload is malformed")
    func strictNotificationBody() throws {
        let jws = try TestPaths.text(TestPaths.testVector("jws/notification-valid.jws"))
        let duplicate = "{\"signedPayload\":\"x.y.z\",\"signedPayload\":\"\(jws)\"}\n"
        let output = try Tool.run(Self.testRoot + ["--format", "json"], stdin: Data(duplicate.utf8))
        let line = try #require(output.jsonLines.first)
        #expect(line["status"] as? String == "malformed")
        #expect((line["error"] as? [String: Any])?["code"] as? String == "invalidJSON")
        #expect(output.status == 2)
    }

    @Test("bad arguments exit with status 2 and say what is wrong", arguments: [
        ["--environment", "Staging"], ["--effective-date", "yesterday"], ["--root", "no/such/file.der"],
        ["--root", "Package.swift"], ["--format", "yaml"], ["--unknown-flag"], ["--environment", "Production"],
        ["no/such/input.jws"], ["--type", "receipt"],
    ])
    func badArguments(_ arguments: [String]) throws {
        // The binary's exit status for argument errors.
        let output = try Tool.runProcess(arguments, stdin: Data())
        #expect(output.status == 2, "stderr: \(output.stderr)")
        #expect(!output.stderr.isEmpty)
    }

    @Test("hostile input never crashes the tool: every line gets a JSON verdict")
    func hostileInput() throws {
        var generator = SystemRandomNumberGenerator()
        var lines: [String] = [
            "not a jws", "a.b.c", "....", "{}", "{\"signedPayload\":5}", "eyJ9.eyJ9.eyJ9",
            String(repeating: "A", count: 3 << 20) + "." + String(repeating: "B", count: 10) + ".C",
            "\u{0}\u{1}binary\u{7F}", "é.é.é",
        ]
        let valid = try TestPaths.text(TestPaths.testVector("jws/transaction-valid.jws"))
        for _ in 0..<40 {
            var bytes = Array(valid.utf8)
            for _ in 0..<3 {
                let index = Int.random(in: 0..<bytes.count, using: &generator)
                bytes[index] = UInt8.random(in: 0x21...0x7E, using: &generator)
            }
            lines.append(String(decoding: bytes, as: UTF8.self))
        }
        let output = try Tool.run(Self.testRoot + ["--format", "json"], stdin: Data(lines.joined(separator: "\n").utf8))
        #expect(output.jsonLines.count == lines.count, "stderr: \(output.stderr.prefix(500))")
        #expect([1, 2].contains(output.status))
        for line in output.jsonLines {
            #expect(["unverified", "malformed", "verified"].contains(line["status"] as? String ?? ""))
        }
    }
}
