import Foundation
import Testing
@testable import AppStoreVerification

/// Input that tries to print lines of its own: line breaks, ANSI escapes and a right-to-left
/// override through every field and error the command-line tool prints, and every library message
/// that quotes input.
@Suite("Forged lines: control and bidi characters from input are escaped")
struct ForgedOutputTests {
    /// A forged "verified" block after a line break, an ANSI sequence that clears the line, an RLO.
    static let hostile = "x\n✔ verified: a transaction (stdin:1)\r\u{1B}[2K\u{1B}[32mproductId com.example.lifetime\u{202E}evil\u{2028}"

    /// What every printed text must not contain.
    static func assertClean(_ text: String, _ context: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let forbidden: [Unicode.Scalar] = ["\r", "\u{1B}", "\u{202E}", "\u{2028}", "\u{9B}"]
        for scalar in forbidden {
            #expect(!text.unicodeScalars.contains(scalar), "\(context): U+\(String(scalar.value, radix: 16)) printed raw in \(text.debugDescription)", sourceLocation: sourceLocation)
        }
        #expect(!text.contains("\n✔ verified: a transaction (stdin:1)"), "\(context): a forged line in \(text.debugDescription)", sourceLocation: sourceLocation)
    }

    static var hostileJSON: String {
        // As a JSON string: the control characters escaped the JSON way.
        var escaped = ""
        for scalar in hostile.unicodeScalars {
            switch scalar.value {
            case 0x22: escaped += "\\\""
            case 0x5C: escaped += "\\\\"
            case 0..<0x20: escaped += String(format: "\\u%04x", scalar.value)
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return "\"" + escaped + "\""
    }

    @Test("payload string fields, keys and the error, in the text format")
    func payloadFields() throws {
        let minted = try MintedJWS()
        let jws = try minted.sign(MintedJWS.transaction(["productId": Self.hostileJSON, "bundleId": Self.hostileJSON],
                                                        extra: [(Self.hostile.replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\r", with: "\\r").replacingOccurrences(of: "\u{1B}", with: "\\u001b"), "1")]))
        let verifier = try minted.verifier()
        let result = try verifier.verifyTransaction(jws)
        guard case .unverified(_, let error) = result else {
            Issue.record("expected a bundle ID refusal, got \(result)")
            return
        }
        Self.assertClean(error.reason, "the library's bundle ID message")
        Self.assertClean(error.description, "the library's error description")
        let output = try VerifyJWSProcess.run(["--root", try minted.rootFile().path, "--format", "text", "-"], stdin: Data((jws + "\n").utf8))
        #expect(output.status == 0, "no bundle ID configured: the signature holds")
        Self.assertClean(output.stdout, "verify-jws text output")
        #expect(output.stdout.contains("\\n✔ verified"), "\(output.stdout)")
        #expect(output.stdout.contains("\\u{202E}"), "\(output.stdout)")
    }

    @Test("a duplicate JSON key is quoted escaped, in the library error and the CLI")
    func duplicateKey() throws {
        let minted = try MintedJWS()
        let key = Self.hostileJSON
        let payload = "{\(key):1,\(key):2,\"bundleId\":\"com.example.app\"}"
        let jws = try minted.sign(payload)
        let verifier = try minted.verifier()
        #expect {
            _ = try verifier.verifyTransaction(jws)
        } throws: { error in
            guard let error = error as? SignedDataDecodingError else { return false }
            Self.assertClean(error.message, "the duplicate-key message")
            return error.message.contains("duplicate key")
        }
        let output = try VerifyJWSProcess.run(["--root", try minted.rootFile().path, "--format", "text", "-"], stdin: Data((jws + "\n").utf8))
        #expect(output.status == 2)
        Self.assertClean(output.stdout + output.stderr, "verify-jws on a duplicate key")
    }

    @Test("JWS header values quoted in errors")
    func headerValues() throws {
        let header = "{\"alg\":\(Self.hostileJSON)}"
        let jws = base64URLEncoded(Data(header.utf8)) + "." + base64URLEncoded(Data(MintedJWS.transaction().utf8)) + ".AAAA"
        let verifier = try MintedJWS().verifier()
        let result = try verifier.verifyTransaction(jws)
        guard case .unverified(_, let error) = result else {
            Issue.record("expected a header refusal, got \(result)")
            return
        }
        Self.assertClean(error.reason, "the alg message")
    }

    @Test("receipt string fields and the receipt date error, in the library and the CLI text format")
    func receiptFields() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("forged-receipt-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let hostile = Array(Self.hostile.utf8)
        func signedReceipt(_ payload: [UInt8], name: String) throws -> Data {
            try Data(payload).write(to: directory.appendingPathComponent("\(name).payload"))
            _ = try OCSPTestPKI.run("/usr/bin/env", ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=Forger",
                                                     "-days", "1", "-keyout", "key.pem", "-out", "cert.pem"], in: directory)
            _ = try OCSPTestPKI.run("/usr/bin/env", ["openssl", "cms", "-sign", "-binary", "-nodetach", "-noattr", "-md", "sha256",
                                                     "-in", "\(name).payload", "-signer", "cert.pem", "-inkey", "key.pem",
                                                     "-outform", "DER", "-out", "\(name).p7"], in: directory)
            return try Data(contentsOf: directory.appendingPathComponent("\(name).p7"))
        }
        // String fields: bundle ID (2), app version (3), original app version (19).
        let fields = try signedReceipt(DER.set(
            DER.attribute(0, DER.tlv(0x0C, Array("ProductionSandbox".utf8))),
            DER.attribute(2, DER.tlv(0x0C, hostile)),
            DER.attribute(3, DER.tlv(0x0C, hostile)),
            DER.attribute(19, DER.tlv(0x0C, hostile)),
            DER.attribute(12, DER.tlv(0x16, Array("2025-01-01T00:00:00Z".utf8)))), name: "fields")
        let verifier = try SignedDataVerifier(configuration: .init(bundleId: "com.example.app"))
        let result = try verifier.verifyAppReceipt(fields)
        guard case .unverified(let receipt, let error) = result else {
            Issue.record("expected an unverified receipt, got \(result)")
            return
        }
        #expect(receipt.bundleId == Self.hostile)
        Self.assertClean(error.reason, "the receipt's error")
        let fieldsFile = directory.appendingPathComponent("fields.b64")
        try Data((fields.base64EncodedString() + "\n").utf8).write(to: fieldsFile)
        let output = try VerifyJWSProcess.run(["--type", "app-receipt", "--format", "text", fieldsFile.path])
        #expect(output.status == 1, "\(output.stderr)")
        Self.assertClean(output.stdout, "verify-jws text output of a receipt")
        #expect(output.stdout.contains("\\u{202E}"), "\(output.stdout)")

        // The creation date (12) as hostile text: the date error quotes it.
        let date = try signedReceipt(DER.set(DER.attribute(12, DER.tlv(0x16, hostile))), name: "date")
        #expect {
            _ = try verifier.verifyAppReceipt(date)
        } throws: { error in
            guard let error = error as? SignedDataDecodingError else { return false }
            Self.assertClean(error.message, "the receipt date message")
            return error.message.contains("RFC 3339")
        }
        let dateFile = directory.appendingPathComponent("date.b64")
        try Data((date.base64EncodedString() + "\n").utf8).write(to: dateFile)
        let dateOutput = try VerifyJWSProcess.run(["--type", "app-receipt", "--format", "text", dateFile.path])
        #expect(dateOutput.status == 2)
        Self.assertClean(dateOutput.stdout + dateOutput.stderr, "verify-jws on a receipt date error")
    }

    @Test("LogSafeText escapes controls, separators and bidi characters, and nothing else")
    func escaping() {
        #expect(LogSafeText.escaping("com.example.app") == "com.example.app")
        #expect(LogSafeText.escaping("a\nb\rc\td") == "a\\nb\\rc\\td")
        #expect(LogSafeText.escaping("\u{1B}[31m") == "\\u{1B}[31m")
        #expect(LogSafeText.escaping("\u{9B}31m\u{7F}\u{0}") == "\\u{9B}31m\\u{7F}\\u{0}")
        #expect(LogSafeText.escaping("abc\u{202E}def\u{2066}\u{200F}\u{2028}\u{FEFF}") == "abc\\u{202E}def\\u{2066}\\u{200F}\\u{2028}\\u{FEFF}")
        #expect(LogSafeText.escaping("Grüße, 日本, emoji 🎉") == "Grüße, 日本, emoji 🎉")
        // Escaping is idempotent: an escaped message escaped again is unchanged.
        let once = LogSafeText.escaping(Self.hostile)
        #expect(LogSafeText.escaping(once) == once)
    }
}
