import AppStoreVerificationTestSupport
import Foundation
import Testing
@testable import AppStoreVerification

/// The JWS layer on its own, with a known key instead of an x5c chain: RFC 7515's ES256 example as
/// a known answer, and Wycheproof's JSON Web Signature vectors.
@Suite("JWS layer")
struct JWSLayerTests {
    /// A P-256 public key from its JWK coordinates, as a DER SubjectPublicKeyInfo.
    static func p256Key(x: String, y: String) throws -> PublicKey {
        let prefix = hexBytes("3059301306072a8648ce3d020106082a8648ce3d030107034200")
        let point = [0x04] + Array(try #require(base64URLDecoded(x))) + Array(try #require(base64URLDecoded(y)))
        return try PublicKey(subjectPublicKeyInfo: Data(prefix + point))
    }

    /// Whether the JWS layer accepts `text` with `key`: compact form, ES256 header, signature.
    static func accepts(_ text: String, key: PublicKey) -> Bool {
        guard let jws = try? CompactJWS(parsing: text) else { return false }
        return (try? ES256Signature.verifyWithoutCertificates(jws, key: key, signer: "the test key")) != nil
    }

    // RFC 7515 Appendix A.3: ECDSA P-256 SHA-256.
    static let rfc7515Example = "eyJhbGciOiJFUzI1NiJ9.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ.DtEhU3ljbEg8L38VWAfUAqOyKAM6-Xx-F4GawxaepmXFCgfTjDxw5djxLa8ISlSApmWQxfKTUJqPP3-Kg6NU1Q"

    static func rfc7515Key() throws -> PublicKey {
        try p256Key(x: "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU", y: "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0")
    }

    @Test("RFC 7515 A.3's ES256 example verifies (its signature is high-S) and any change breaks it")
    func rfc7515KnownAnswer() throws {
        let key = try Self.rfc7515Key()
        #expect(Self.accepts(Self.rfc7515Example, key: key))
        // The example's s is above n/2: ECDSA, and Apple, accept such signatures.
        let signature = try CompactJWS(parsing: Self.rfc7515Example).signature
        #expect(signature[32] >= 0x80)
        var tampered = Self.rfc7515Example
        tampered.removeLast()
        tampered.append("A")
        #expect(!Self.accepts(tampered, key: key))
        let otherPayload = Self.rfc7515Example.replacingOccurrences(of: ".eyJpc3Mi", with: ".eyJpc3Ni")
        #expect(!Self.accepts(otherPayload, key: key))
    }

    struct WycheproofFile: Decodable {
        struct Group: Decodable {
            struct JWK: Decodable { var x: String?; var y: String?; var kty: String }
            var comment: String
            var `public`: JWK?
            var tests: [Case]
        }
        struct Case: Decodable {
            var tcId: Int
            var comment: String
            var jws: String
            var result: String
        }
        var testGroups: [Group]
    }

    static func wycheproofGroups(_ names: Set<String>) throws -> [WycheproofFile.Group] {
        let data = try Data(contentsOf: TestPaths.sharedFile("vectors/wycheproof/json_web_signature_test.json"))
        return try JSONDecoder().decode(WycheproofFile.self, from: data).testGroups.filter { names.contains($0.comment) }
    }

    @Test("Wycheproof es256 and SpecialCaseEs256: every valid JWS verifies, every invalid one is refused",
          .enabled(if: TestPaths.sharedIsPresent, sharedAbsentComment))
    func wycheproofES256() throws {
        var count = 0
        for group in try Self.wycheproofGroups(["es256", "SpecialCaseEs256"]) {
            let jwk = try #require(group.public)
            let key = try Self.p256Key(x: try #require(jwk.x), y: try #require(jwk.y))
            for test in group.tests {
                let accepted = Self.accepts(test.jws, key: key)
                if test.result == "valid" { #expect(accepted, "tcId \(test.tcId) \(test.comment)") }
                if test.result == "invalid" { #expect(!accepted, "tcId \(test.tcId) \(test.comment)") }
                count += 1
            }
        }
        #expect(count == 39)
    }

    /// Wycheproof's base64 group is HS256 (a MAC this verifier never accepts), so it is run against
    /// the encoding layer: a valid case's three segments decode strictly, an invalid case's do not.
    /// Two cases cannot be told apart by any decoder: their stored text is byte-identical to tcId 357
    /// (valid); the padding their names refer to is not in the stored text.
    static let identicalToValidCase: Set<Int> = [367, 370]
    /// Valid for lenient base64 decoders only; this verifier is strict on purpose: a character outside
    /// the alphabet is an error, never skipped, so one signature has exactly one accepted text form.
    static let deliberateDifferences: [Int: String] = [
        372: "'?' inserted in the header segment: lenient decoders skip it, we reject it",
        373: "'?' inserted in the payload segment: lenient decoders skip it, we reject it",
    ]

    @Test("Wycheproof base64: strict decoding agrees with every verdict but the listed deliberate differences",
          .enabled(if: TestPaths.sharedIsPresent, sharedAbsentComment))
    func wycheproofBase64() throws {
        let group = try #require(try Self.wycheproofGroups(["base64"]).first)
        for test in group.tests {
            let segments = test.jws.split(separator: ".", omittingEmptySubsequences: false)
            let decodes = segments.count == 3 && segments.allSatisfy { (try? Base64.decodeURL($0.utf8)) != nil }
            if let reason = Self.deliberateDifferences[test.tcId] {
                #expect(!decodes, "tcId \(test.tcId): \(reason)")
            } else if Self.identicalToValidCase.contains(test.tcId) {
                #expect(test.jws == group.tests.first { $0.tcId == 357 }?.jws, "tcId \(test.tcId) changed: review it")
            } else {
                #expect(decodes == (test.result == "valid"), "tcId \(test.tcId) \(test.comment)")
            }
            // Whatever the encoding, an HS256 JWS never verifies here.
            #expect(!Self.accepts(test.jws, key: try Self.rfc7515Key()))
        }
    }
}
