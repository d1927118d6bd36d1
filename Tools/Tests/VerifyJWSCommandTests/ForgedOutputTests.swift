import AppStoreVerificationTestSupport
import AppStoreVerification
import Foundation
import Testing

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

    /// Whether `text` shows the right-to-left override escaped: `\u{202E}` (``LogSafeText``) or
    /// `\u202e` (in a JSON string literal).
    static func showsEscapedOverride(_ text: String) -> Bool {
        text.contains("\\u{202E}") || text.contains("\\u202e")
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

    @Test("verify-jws entitlements writes bidi and control characters of signed strings escaped in its JSON")
    func entitlementsJSON() throws {
        let minted = try MintedJWS()
        // A purchase whose productId carries the hostile text; its bundle ID stays the vector's.
        let jws = try minted.sign(MintedJWS.transaction(["productId": Self.hostileJSON, "type": "\"Non-Consumable\""]))
        // After the purchase (2026-03-01).
        let output = try Tool.run(["entitlements", "--root", minted.rootFile().path, "--at", "2026-03-15T00:00:00Z", "-"],
                                              stdin: Data((jws + "\n").utf8))
        Self.assertClean(output.stdout, "verify-jws entitlements JSON")
        #expect(output.stdout.contains("\\u202e"), "\(output.stdout)")
        // Still one JSON object, which a JSON parser reads back to the original text.
        let object = try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any]
        let products = (object?["entitlements"] as? [[String: Any]])?.compactMap { $0["productId"] as? String } ?? []
        let rejected = (object?["rejected"] as? [[String: Any]]) ?? []
        #expect(products == [Self.hostile], "\(output.stdout)")
        #expect(rejected.isEmpty, "\(output.stdout)")
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
        Self.assertClean(error.message, "the library's bundle ID message")
        Self.assertClean(error.description, "the library's error description")
        let output = try Tool.run(["--root", minted.rootFile().path, "--format", "text", "-"], stdin: Data((jws + "\n").utf8))
        #expect(output.status == 0, "no bundle ID configured: the signature holds")
        Self.assertClean(output.stdout, "verify-jws text output")
        #expect(output.stdout.contains("\\n✔ verified"), "\(output.stdout)")
        #expect(Self.showsEscapedOverride(output.stdout), "\(output.stdout)")
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
        let output = try Tool.run(["--root", minted.rootFile().path, "--format", "text", "-"], stdin: Data((jws + "\n").utf8))
        #expect(output.status == 2)
        Self.assertClean(output.stdout + output.stderr, "verify-jws on a duplicate key")
    }

    @Test("receipt string fields and the receipt date error, in the library and the CLI text format")
    func receiptFields() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("forged-receipt-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let hostile = Array(Self.hostile.utf8)
        // Signed by a test PKI that neither the verifier nor the tool trusts (Apple's root only).
        let minted = try MintedJWS()
        // String fields: bundle ID (2), app version (3), original app version (19).
        let fields = try minted.receipt(DER.set(
            DER.attribute(0, DER.tlv(0x0C, Array("ProductionSandbox".utf8))),
            DER.attribute(2, DER.tlv(0x0C, hostile)),
            DER.attribute(3, DER.tlv(0x0C, hostile)),
            DER.attribute(19, DER.tlv(0x0C, hostile)),
            DER.attribute(12, DER.tlv(0x16, Array("2025-01-01T00:00:00Z".utf8)))))
        let verifier = try SignedDataVerifier(configuration: .init(bundleId: "com.example.app"))
        let result = try verifier.verifyAppReceipt(fields)
        guard case .unverified(let receipt, let error) = result else {
            Issue.record("expected an unverified receipt, got \(result)")
            return
        }
        #expect(receipt.bundleId == Self.hostile)
        Self.assertClean(error.message, "the receipt's error")
        let fieldsFile = directory.appendingPathComponent("fields.b64")
        try Data((fields.base64EncodedString() + "\n").utf8).write(to: fieldsFile)
        let output = try Tool.run(["--type", "app-receipt", "--format", "text", fieldsFile.path])
        #expect(output.status == 1, "\(output.stderr)")
        Self.assertClean(output.stdout, "verify-jws text output of a receipt")
        #expect(Self.showsEscapedOverride(output.stdout), "\(output.stdout)")

        // The creation date (12) as hostile text: the date error quotes it.
        let date = try minted.receipt(DER.set(DER.attribute(12, DER.tlv(0x16, hostile))))
        #expect {
            _ = try verifier.verifyAppReceipt(date)
        } throws: { error in
            guard let error = error as? SignedDataDecodingError else { return false }
            Self.assertClean(error.message, "the receipt date message")
            return error.message.contains("RFC 3339")
        }
        let dateFile = directory.appendingPathComponent("date.b64")
        try Data((date.base64EncodedString() + "\n").utf8).write(to: dateFile)
        let dateOutput = try Tool.run(["--type", "app-receipt", "--format", "text", dateFile.path])
        #expect(dateOutput.status == 2)
        Self.assertClean(dateOutput.stdout + dateOutput.stderr, "verify-jws on a receipt date error")
    }
}
