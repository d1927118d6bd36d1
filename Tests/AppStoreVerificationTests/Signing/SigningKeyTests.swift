import AppStoreVerificationTestSupport
import Foundation
import Testing
@testable import AppStoreVerification

@Suite("Signing keys and ES256 signatures", .enabled(if: SigningTestKeys.isAvailable, "needs the openssl command to make test keys"))
struct SigningKeyTests {
    @Test("PKCS#8 (.p8), SEC1 and ecparam output (EC PARAMETERS first) are accepted; PKCS#8 and SEC1 of one key are one key")
    func acceptedFormats() throws {
        let keys = try SigningTestKeys.require()
        let pkcs8 = try SigningKey(contentsOf: keys.pkcs8)
        let sec1 = try SigningKey(contentsOf: keys.sec1)
        _ = try SigningKey(contentsOf: keys.sec1WithParameters)
        let fromText = try SigningKey(pem: String(contentsOf: keys.pkcs8, encoding: .utf8))
        let expected = try Data(contentsOf: keys.publicKeyDER)
        #expect(pkcs8.publicKeyDER == expected)
        #expect(sec1.publicKeyDER == expected)
        #expect(fromText.publicKeyDER == expected)
        #expect(expected.count == 91)
        #expect(pkcs8.description == "SigningKey(P-256)")
    }

    @Test("ES256 (raw r || s) and DER signatures verify under the public key; each signature is new")
    func signaturesVerify() throws {
        let key = try SigningKey(contentsOf: SigningTestKeys.require().pkcs8)
        let publicKey = try PublicKey(subjectPublicKeyInfo: key.publicKeyDER)
        let message = Array("header.payload".utf8)
        let raw = try key.sign(message, encoding: .raw)
        #expect(raw.count == 64)
        try publicKey.verifyES256(signature: raw, over: message)
        #expect(throws: OpenSSLFailure.self) { try publicKey.verifyES256(signature: raw, over: Array("header.payloae".utf8)) }
        #expect(try key.sign(message, encoding: .raw) != raw)

        let der = try key.sign(message, encoding: .der)
        #expect(der.count >= 8 && der.count <= 72 && der.first == 0x30)
        let converted = try #require(ECDSASignatureEncoding.raw(fromDER: der))
        try publicKey.verifyES256(signature: converted, over: message)
    }

    @Test("encrypted keys are refused without prompting, and the message shows no key material",
          arguments: ["p256-encrypted-pkcs8.pem", "p256-encrypted-sec1.pem"])
    func encrypted(_ name: String) throws {
        let keys = try SigningTestKeys.require()
        let error = try #require(throws: SigningKeyError.self) { try SigningKey(contentsOf: keys.file(name)) }
        #expect(error.code == .encryptedKey)
        #expect(error.message.contains("encrypted"))
        #expect(error.message.contains("decrypt it first"))
        for line in try SigningTestKeys.pemBodyLines(keys.file(name)) {
            #expect(!error.message.contains(line))
        }
    }

    @Test("an RSA key and a P-384 key are refused: the key must be P-256")
    func wrongKeys() throws {
        let keys = try SigningTestKeys.require()
        let rsa = try #require(throws: SigningKeyError.self) { try SigningKey(contentsOf: keys.rsa) }
        #expect(rsa.code == .unsupportedKey)
        #expect(rsa.message.contains("the key must be P-256"))
        #expect(rsa.message.contains("2048-bit RSA key"))
        let p384 = try #require(throws: SigningKeyError.self) { try SigningKey(contentsOf: keys.p384) }
        #expect(p384.code == .unsupportedKey)
        #expect(p384.message.contains("the key must be P-256"))
        #expect(p384.message.contains("P-384"))
        for line in try SigningTestKeys.pemBodyLines(keys.rsa) + SigningTestKeys.pemBodyLines(keys.p384) {
            #expect(!rsa.message.contains(line) && !p384.message.contains(line))
        }
    }

    @Test("garbage, empty text, a public key and a damaged PEM block are not keys")
    func malformed() throws {
        let keys = try SigningTestKeys.require()
        let pem = try String(contentsOf: keys.pkcs8, encoding: .utf8)
        var lines = pem.split(separator: "\n").map(String.init)
        lines[1] = String(lines[1].prefix(10)) + "*" + lines[1].dropFirst(11)
        let damaged = lines.joined(separator: "\n") + "\n"
        for text in ["", "garbage", try String(contentsOf: keys.publicKey, encoding: .utf8), damaged, "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"] {
            let error = try #require(throws: SigningKeyError.self) { try SigningKey(pem: text) }
            #expect(error.code == .malformedKey, "\(error)")
            #expect(error.message.contains("BEGIN PRIVATE KEY"))
        }
        for url in [keys.garbage, keys.empty] {
            let error = try #require(throws: SigningKeyError.self) { try SigningKey(contentsOf: url) }
            #expect(error.code == .malformedKey)
            #expect(error.message.hasPrefix(url.path))
        }
    }

    @Test("a missing file and a directory are unreadable key files")
    func unreadable() throws {
        let keys = try SigningTestKeys.require()
        let missing = try #require(throws: SigningKeyError.self) { try SigningKey(contentsOf: keys.file("missing.p8")) }
        #expect(missing.code == .unreadableFile)
        #expect(missing.message.contains("missing.p8"))
        let directory = try #require(throws: SigningKeyError.self) { try SigningKey(contentsOf: keys.directory) }
        #expect(directory.code == .unreadableFile)
    }

    @Test("JSON members are written in order, escaped as Python's json.dumps escapes them")
    func jsonWriter() {
        var object = SignedJSONObject()
        object.set("b", .string("a\"b\\c\n\t\u{7F}é😀/ "))
        object.set("a", .integer(-12))
        object.set("c", .bool(false))
        object.set("b", .string("x"))
        #expect(String(decoding: object.utf8, as: UTF8.self) == #"{"b":"x","a":-12,"c":false}"#)
        var escaped = SignedJSONObject()
        escaped.set("k", .string("a\"b\\c\n\t\u{7F}\u{08}\u{0C}\u{01}é😀/ "))
        #expect(String(decoding: escaped.utf8, as: UTF8.self) == #"{"k":"a\"b\\c\n\t\u007f\b\f\u0001\u00e9\ud83d\ude00/ "}"#)
        // One byte at the edges of what is written as it is.
        for (text, json) in [(" ~!", #"" ~!""#), ("\u{7F}", #""\u007f""#), ("\u{1F}", #""\u001f""#), ("\"", #""\"""#), ("\\", #""\\""#), ("é", #""\u00e9""#)] {
            var single = SignedJSONObject()
            single.set("k", .string(text))
            #expect(String(decoding: single.utf8, as: UTF8.self) == "{\"k\":\(json)}", "\(text.unicodeScalars.map(\.value))")
        }
    }

    @Test("2,000 raw signatures all verify: r and s shorter than 32 bytes (about 1 in 128) are left-padded")
    func rawSignaturesVerify() throws {
        let key = try SigningKey(contentsOf: SigningTestKeys.require().pkcs8)
        let publicKey = try PublicKey(subjectPublicKeyInfo: key.publicKeyDER)
        var short = 0
        for index in 0..<2_000 {
            let message = Array("message \(index)".utf8)
            let raw = try key.sign(message, encoding: .raw)
            let der = try key.sign(message, encoding: .der)
            #expect(raw.count == 64)
            #expect(throws: Never.self) { try publicKey.verifyES256(signature: raw, over: message) }
            if raw.first == 0 || raw[32] == 0 { short += 1 }
            #expect(der.first == 0x30 && der.count <= 72)
        }
        #expect(short > 0, "no short r or s in 2,000 signatures: the padding path was not exercised")
    }

    @Test("base64url encoding has no padding, is Foundation's base64 in the URL alphabet, and round-trips through the strict decoder")
    func base64URL() throws {
        var generator = SystemRandomNumberGenerator()
        for count in Array(0..<70) + [3 * 256, 3 * 256 + 1, 3 * 256 + 2] {
            let bytes = count < 70 ? Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 250) })
                : Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
            let text = Base64.encodeURL(bytes)
            #expect(!text.contains("=") && !text.contains("+") && !text.contains("/"))
            #expect(try Base64.decodeURL(Array(text.utf8)) == bytes)
            #expect(text == bytes.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: ""))
        }
        // Every byte value in each of a group's three positions.
        let every = Data((0..<768).map { UInt8(truncatingIfNeeded: $0 / 3 + $0 % 3 * 85) })
        #expect(try Base64.decodeURL(Array(Base64.encodeURL(every).utf8)) == every)
    }

    @Test("JWSSigner makes header.payload.signature that verifies, with the header PyJWT writes")
    func jwsSigner() throws {
        let key = try SigningKey(contentsOf: SigningTestKeys.require().pkcs8)
        var claims = SignedJSONObject()
        claims.set("iss", .string("issuer"))
        let jws = try JWSSigner(key: key).sign(header: JWSSigner.jwtHeader(keyId: "KEY"), claims: claims)
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        try #require(parts.count == 3)
        #expect(base64URLDecoded(parts[0]) == Data(#"{"alg":"ES256","kid":"KEY","typ":"JWT"}"#.utf8))
        #expect(base64URLDecoded(parts[1]) == Data(#"{"iss":"issuer"}"#.utf8))
        let signature = try #require(base64URLDecoded(parts[2]))
        try PublicKey(subjectPublicKeyInfo: key.publicKeyDER).verifyES256(signature: signature, over: Array((parts[0] + "." + parts[1]).utf8))
        var other = SignedJSONObject()
        other.set("alg", .string("RS256"))
        #expect(throws: SignatureCreationError.self) { try JWSSigner(key: key).sign(header: other, claims: claims) }
    }
}
