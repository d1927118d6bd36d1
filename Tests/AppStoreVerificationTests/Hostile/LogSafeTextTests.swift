import AppStoreVerificationTestSupport
import Foundation
import Testing
@testable import AppStoreVerification

/// The library's own messages quote hostile input escaped (the command-line tool's output is
/// tested in Tools/, `ForgedOutputTests`).
@Suite("LogSafeText: control and bidi characters from input are escaped")
struct LogSafeTextTests {
    /// A forged line after a line break, an ANSI sequence, a right-to-left override, a separator.
    static let hostile = "x\n✔ verified\r\u{1B}[2K\u{1B}[32mproductId\u{202E}evil\u{2028}"

    @Test("escapes controls, separators and bidi characters, and nothing else")
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

    @Test("a JWS header value is quoted escaped in the verdict's error")
    func headerValues() throws {
        let json = String(data: try JSONSerialization.data(withJSONObject: ["alg": Self.hostile]), encoding: .utf8) ?? ""
        let jws = base64URLEncoded(Data(json.utf8)) + "." + base64URLEncoded(Data(MintedJWS.transaction().utf8)) + ".AAAA"
        let result = try MintedJWS().verifier().verifyTransaction(jws)
        guard case .unverified(_, let error) = result else {
            Issue.record("expected a header refusal, got \(result)")
            return
        }
        for scalar: Unicode.Scalar in ["\n", "\r", "\u{1B}", "\u{202E}", "\u{2028}"] {
            #expect(!error.message.unicodeScalars.contains(scalar), "U+\(String(scalar.value, radix: 16)) raw in \(error.message.debugDescription)")
        }
    }
}
