import AppStoreVerificationTestSupport
import Foundation
import Testing

@Suite("verify-jws sign", .enabled(if: SigningTestKeys.isAvailable, "needs the openssl command to make test keys"))
struct SignCommandTests {
    static let keyOptions = ["--key-id", "KEYID"]

    /// The claims of a JWS the tool printed, after checking its signature and header; the claims'
    /// JSON text is under the key "(text)".
    func verifiedClaims(_ output: Tool.Output) throws -> [String: Any] {
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr.isEmpty)
        let jws = output.stdout.trimmingCharacters(in: .newlines)
        #expect(output.stdout == jws + "\n")
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        try #require(parts.count == 3, "\(output.stdout)")
        let signature = try #require(base64URLDecoded(parts[2]).flatMap(ECDSASignatureEncoding.der(fromRaw:)), "\(parts[2])")
        #expect(try SigningTestKeys.require().verifiesES256(signatureDER: signature, over: Data((parts[0] + "." + parts[1]).utf8)))
        let headerBytes = try #require(base64URLDecoded(parts[0]))
        #expect(String(decoding: headerBytes, as: UTF8.self) == #"{"alg":"ES256","kid":"KEYID","typ":"JWT"}"#)
        let claimBytes = try #require(base64URLDecoded(parts[1]))
        var claims = try #require(JSONSerialization.jsonObject(with: claimBytes) as? [String: Any])
        claims["(text)"] = String(decoding: claimBytes, as: UTF8.self)
        return claims
    }

    @Test("promotional-offer prints signature, nonce, timestamp and keyIdentifier; the signature verifies")
    func promotionalOffer() throws {
        let keys = try SigningTestKeys.require()
        let output = try Tool.run(["sign", "promotional-offer", "--key", keys.sec1.path] + Self.keyOptions + [
            "--bundle-id", "com.example.app", "--product-id", "product", "--offer-id", "offer",
            "--app-account-token", "7E3FB20B-4CDB-47CC-936D-99D65F608138", "--nonce", "A1B2C3D4-E5F6-4789-8ABC-DEF012345678", "--timestamp", "1698148900000"])
        #expect(output.status == 0, "\(output.stderr)")
        let lines = output.jsonLines
        try #require(lines.count == 1, "\(output.stdout)")
        let object = lines[0]
        #expect(Set(object.keys) == ["signature", "nonce", "timestamp", "keyIdentifier"])
        #expect(object["nonce"] as? String == "a1b2c3d4-e5f6-4789-8abc-def012345678")
        #expect((object["timestamp"] as? NSNumber)?.int64Value == 1_698_148_900_000)
        #expect(object["keyIdentifier"] as? String == "KEYID")
        let der = try #require((object["signature"] as? String).flatMap { Data(base64Encoded: $0) })
        let text = "com.example.app\u{2063}KEYID\u{2063}product\u{2063}offer\u{2063}7e3fb20b-4cdb-47cc-936d-99d65f608138\u{2063}a1b2c3d4-e5f6-4789-8abc-def012345678\u{2063}1698148900000"
        #expect(try keys.verifiesES256(signatureDER: der, over: Data(text.utf8)))

        let generated = try Tool.run(["sign", "promotional-offer", "--key", keys.pkcs8.path] + Self.keyOptions + [
            "--bundle-id", "b", "--product-id", "p", "--offer-id", "o"])
        let object2 = try #require(generated.jsonLines.first)
        #expect(UUID(uuidString: object2["nonce"] as? String ?? "") != nil)
        let now = Date().timeIntervalSince1970 * 1000
        #expect(abs(((object2["timestamp"] as? NSNumber)?.doubleValue ?? 0) - now) < 600_000)
    }

    @Test("promotional-offer-v2, introductory-offer-eligibility and advanced-commerce print a JWS with Apple's claims")
    func jwsSubcommands() throws {
        let keys = try SigningTestKeys.require()
        let common = ["--key", keys.pkcs8.path] + Self.keyOptions + ["--issuer-id", "issuer", "--bundle-id", "com.example.app"]
        let v2 = try verifiedClaims(Tool.run(["sign", "promotional-offer-v2"] + common + ["--product-id", "p", "--offer-id", "o", "--transaction-id", "42"]))
        #expect(v2["aud"] as? String == "promotional-offer")
        #expect(v2["productId"] as? String == "p" && v2["offerIdentifier"] as? String == "o" && v2["transactionId"] as? String == "42")
        #expect(v2["iss"] as? String == "issuer" && v2["bid"] as? String == "com.example.app")
        #expect(UUID(uuidString: v2["nonce"] as? String ?? "") != nil && v2["iat"] is NSNumber)
        let v2Without = try verifiedClaims(Tool.run(["sign", "promotional-offer-v2"] + common + ["--product-id", "p", "--offer-id", "o"]))
        #expect(v2Without["transactionId"] == nil)

        let intro = try verifiedClaims(Tool.run(["sign", "introductory-offer-eligibility"] + common + ["--product-id", "p", "--allow-introductory-offer", "false", "--transaction-id", "7"]))
        #expect(intro["aud"] as? String == "introductory-offer-eligibility")
        #expect((intro["(text)"] as? String)?.contains(#""allowIntroductoryOffer":false,"#) == true)

        let request = keys.file("request.json")
        try Data("{\"operation\": \"CREATE_SUBSCRIPTION\", \"version\": \"1\"}\n".utf8).write(to: request)
        let commerce = try verifiedClaims(Tool.run(["sign", "advanced-commerce"] + common + ["--request", request.path]))
        #expect(commerce["aud"] as? String == "advanced-commerce-api")
        let embedded = try #require((commerce["request"] as? String).flatMap { Data(base64Encoded: $0) })
        #expect(String(decoding: embedded, as: UTF8.self) == "{\"operation\": \"CREATE_SUBSCRIPTION\", \"version\": \"1\"}")
    }

    @Test("a missing, unreadable, encrypted or non-P-256 key: one line on stderr naming the problem, nothing on stdout, exit 2",
          arguments: [
            ("missing.p8", "no such key file"), ("p256-encrypted-pkcs8.pem", "encrypted"), ("p256-encrypted-sec1.pem", "encrypted"),
            ("rsa.pem", "the key must be P-256"), ("p384.pem", "the key must be P-256"), ("garbage.pem", "not a PEM private key"),
            ("empty.pem", "not a PEM private key"), ("p256-public.pem", "not a PEM private key"),
          ])
    func badKey(_ name: String, _ expected: String) throws {
        let keys = try SigningTestKeys.require()
        let key = keys.file(name)
        let invocations: [[String]] = [
            ["sign", "promotional-offer", "--key", key.path, "--key-id", "K", "--bundle-id", "b", "--product-id", "p", "--offer-id", "o"],
            ["sign", "promotional-offer-v2", "--key", key.path, "--key-id", "K", "--issuer-id", "i", "--bundle-id", "b", "--product-id", "p", "--offer-id", "o"],
            ["sign", "introductory-offer-eligibility", "--key", key.path, "--key-id", "K", "--issuer-id", "i", "--bundle-id", "b", "--product-id", "p", "--allow-introductory-offer", "true", "--transaction-id", "1"],
        ]
        let secrets = FileManager.default.fileExists(atPath: key.path) ? try SigningTestKeys.pemBodyLines(key) : []
        for arguments in invocations {
            let output = try Tool.run(arguments)
            #expect(output.status == 2)
            #expect(output.stdout.isEmpty)
            #expect(output.stderr.hasSuffix("\n") && output.stderr.filter { $0 == "\n" }.count == 1, "\(output.stderr)")
            #expect(output.stderr.contains(expected), "\(output.stderr)")
            #expect(output.stderr.contains(name))
            for line in secrets { #expect(!output.stderr.contains(line)) }
        }
    }

    @Test("a directory as the key, a request that is not a JSON object or is missing: exit 2, one line")
    func otherFailures() throws {
        let keys = try SigningTestKeys.require()
        let directory = try Tool.run(["sign", "promotional-offer", "--key", keys.directory.path, "--key-id", "K", "--bundle-id", "b", "--product-id", "p", "--offer-id", "o"])
        #expect(directory.status == 2 && directory.stdout.isEmpty && directory.stderr.contains("directory"))
        let notObject = keys.file("array.json")
        try Data("[1, 2]".utf8).write(to: notObject)
        for (request, expected) in [(notObject.path, "must be a JSON object"), (keys.file("nothing.json").path, "no such request file")] {
            let output = try Tool.run(["sign", "advanced-commerce", "--key", keys.pkcs8.path, "--key-id", "K", "--issuer-id", "i", "--bundle-id", "b", "--request", request])
            #expect(output.status == 2)
            #expect(output.stdout.isEmpty)
            #expect(output.stderr.contains(expected), "\(output.stderr)")
        }
        let badNonce = try Tool.run(["sign", "promotional-offer", "--key", keys.pkcs8.path, "--key-id", "K", "--bundle-id", "b", "--product-id", "p", "--offer-id", "o", "--nonce", "nope"])
        #expect(badNonce.status == 2 && badNonce.stdout.isEmpty && badNonce.stderr.contains("--nonce must be a UUID"))
    }

    @Test("the top-level help lists sign; sign's help lists its four subcommands")
    func help() throws {
        let top = try Tool.run(["--help"])
        #expect(top.status == 0)
        #expect(top.stdout.contains("sign"))
        let sign = try Tool.run(["sign", "--help"])
        #expect(sign.status == 0)
        for name in ["promotional-offer", "promotional-offer-v2", "introductory-offer-eligibility", "advanced-commerce"] {
            #expect(sign.stdout.contains(name))
        }
    }
}
