import AppStoreVerificationTestSupport
import Foundation
import Testing
@testable import AppStoreVerification

// Differential test against Apple's App Store Server Library (Python): for the same key and inputs,
// Apple's library and ours sign the same bytes (V1: the same text; JWS: the same header and claims,
// byte for byte, with Apple's nonce and clock pinned to ours), and each side's signatures verify
// under the other's verification (Python's `cryptography` and PyJWT for ours, our shim for Apple's).
// ECDSA is randomized, so signatures themselves always differ.

@Suite("Signatures compared with Apple's App Store Server Library")
struct SigningOracleDifferentialTests {
    static let nonce = "5f0a4d1e-93b2-4c8e-a7d6-0b1c2d3e4f50"
    static let issuedAt: Int64 = 1_700_000_000

    struct V1Case {
        var productId: String
        var offerId: String
        var applicationUsername: String
        var nonce: String
        var timestamp: Int64
    }

    static let v1Cases = [
        V1Case(productId: "com.example.monthly", offerId: "WINBACK", applicationUsername: "7E3FB20B-4CDB-47CC-936D-99D65F608138",
               nonce: "A1B2C3D4-E5F6-4789-8ABC-DEF012345678", timestamp: 1_698_148_900_000),
        V1Case(productId: "p", offerId: "o", applicationUsername: "", nonce: "00000000-0000-4000-8000-000000000000", timestamp: 0),
        V1Case(productId: "prodüct ✓", offerId: "öffer\"\\", applicationUsername: "MixedCase User", nonce: "ffffffff-ffff-4fff-bfff-ffffffffffff", timestamp: 9_999_999_999_999),
    ]

    @Test("same signed bytes as Apple's library, and each side's signatures verify under the other's verification",
          .enabled(if: SigningTestKeys.isAvailable, "needs the openssl command to make test keys"),
          .enabled(if: AppleSigningOracle.isAvailable, AppleSigningOracle.skipComment),
          .timeLimit(.minutes(2)))
    func sameAsApple() throws {
        let keys = try SigningTestKeys.require()
        let key = try SigningKey(contentsOf: keys.pkcs8)
        let publicKey = try PublicKey(subjectPublicKeyInfo: key.publicKeyDER)
        let keyId = "KEY123", issuerId = "issuer-5d3a", bundleId = "com.example.app"
        let nonce = try #require(UUID(uuidString: Self.nonce))
        let issuedAt = Date(timeIntervalSince1970: TimeInterval(Self.issuedAt))

        // Ours first: V1 signatures and texts, and one JWS per kind and variant.
        let v1 = PromotionalOfferSignatureCreator(signingKey: key, keyId: keyId, bundleId: bundleId)
        var v1Inputs: [[String: Any]] = []
        var ourTexts: [String] = []
        for c in Self.v1Cases {
            let caseNonce = try #require(UUID(uuidString: c.nonce))
            ourTexts.append(v1.signedText(productIdentifier: c.productId, subscriptionOfferID: c.offerId, applicationUsername: c.applicationUsername, nonce: caseNonce, timestamp: c.timestamp))
            let signature = try v1.createSignature(productIdentifier: c.productId, subscriptionOfferID: c.offerId, applicationUsername: c.applicationUsername, nonce: caseNonce, timestamp: Date(timeIntervalSince1970: Double(c.timestamp) / 1000))
            v1Inputs.append(["productId": c.productId, "offerId": c.offerId, "applicationUsername": c.applicationUsername,
                             "nonce": c.nonce, "timestamp": c.timestamp, "ourSignature": signature])
        }

        let v2 = PromotionalOfferV2SignatureCreator(signingKey: key, keyId: keyId, issuerId: issuerId, bundleId: bundleId)
        let intro = IntroductoryOfferEligibilitySignatureCreator(signingKey: key, keyId: keyId, issuerId: issuerId, bundleId: bundleId)
        let commerce = AdvancedCommerceInAppSignatureCreator(signingKey: key, keyId: keyId, issuerId: issuerId, bundleId: bundleId)
        // Python's json.dumps of the request Apple's library encodes (its separators are ", " and ": ").
        let requestJSON = #"{"operation": "CREATE_SUBSCRIPTION", "version": "1", "requestInfo": {"requestReferenceId": "0f9b7a5e-1c1d-4f3b-9a8a-6c4e2f1d0b9a", "note": "caf\u00e9"}}"#
        let jwsCases: [[String: Any]] = [
            ["name": "v2-with-transaction", "kind": "promotionalOfferV2", "productId": "com.example.monthly", "offerIdentifier": "WINBACK", "transactionId": "2000000123456789",
             "ours": try v2.createSignature(productId: "com.example.monthly", offerIdentifier: "WINBACK", transactionId: "2000000123456789", nonce: nonce, issuedAt: issuedAt)],
            ["name": "v2-without-transaction", "kind": "promotionalOfferV2", "productId": "prodüct ✓", "offerIdentifier": "öffer\"\\/",
             "ours": try v2.createSignature(productId: "prodüct ✓", offerIdentifier: "öffer\"\\/", nonce: nonce, issuedAt: issuedAt)],
            ["name": "intro-true", "kind": "introductoryOfferEligibility", "productId": "com.example.yearly", "allowIntroductoryOffer": true, "transactionId": "42",
             "ours": try intro.createSignature(productId: "com.example.yearly", allowIntroductoryOffer: true, transactionId: "42", nonce: nonce, issuedAt: issuedAt)],
            ["name": "intro-false", "kind": "introductoryOfferEligibility", "productId": "com.example.yearly", "allowIntroductoryOffer": false, "transactionId": "43",
             "ours": try intro.createSignature(productId: "com.example.yearly", allowIntroductoryOffer: false, transactionId: "43", nonce: nonce, issuedAt: issuedAt)],
            ["name": "advanced-commerce", "kind": "advancedCommerce",
             // The same request for Apple's library, as JSON text (json.loads keeps member order).
             "requestText": requestJSON,
             "ours": try commerce.createSignature(requestJSON: Data(requestJSON.utf8), nonce: nonce, issuedAt: issuedAt)],
        ]

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("apple-sign-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try AppleSigningOracle.run([
            "keyFile": keys.pkcs8.path, "keyId": keyId, "issuerId": issuerId, "bundleId": bundleId,
            "nonce": Self.nonce, "issuedAt": Self.issuedAt, "v1": v1Inputs, "jws": jwsCases,
        ], in: directory)

        // V1: the same text; Apple's signature verifies under our shim, ours under `cryptography`.
        let appleV1 = try #require(output["v1"] as? [[String: Any]])
        try #require(appleV1.count == Self.v1Cases.count)
        for (index, apple) in appleV1.enumerated() {
            let signedText = try #require((apple["signedText"] as? String).flatMap { Data(base64Encoded: $0) })
            #expect(signedText == Data(ourTexts[index].utf8), "V1 case \(index): Apple signs \(String(decoding: signedText, as: UTF8.self))")
            #expect(apple["oursVerifies"] as? Bool == true, "V1 case \(index): our signature does not verify in Python")
            let appleDER = try #require((apple["signature"] as? String).flatMap { Data(base64Encoded: $0) })
            let appleRaw = try #require(ECDSASignatureEncoding.raw(fromDER: appleDER))
            #expect(throws: Never.self) { try publicKey.verifyES256(signature: appleRaw, over: signedText) }
        }

        // JWS: the same header and payload segments; each signature verifies on the other side.
        let appleJWS = try #require(output["jws"] as? [String: [String: Any]])
        for jwsCase in jwsCases {
            let name = try #require(jwsCase["name"] as? String)
            let ours = try #require(jwsCase["ours"] as? String)
            let result = try #require(appleJWS[name], "no result for \(name)")
            let apple = try #require(result["apple"] as? String)
            let appleParts = apple.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            let ourParts = ours.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            try #require(appleParts.count == 3 && ourParts.count == 3)
            #expect(ourParts[0] == appleParts[0], "\(name) header: ours \(String(decoding: base64URLDecoded(ourParts[0]) ?? Data(), as: UTF8.self)), Apple's \(String(decoding: base64URLDecoded(appleParts[0]) ?? Data(), as: UTF8.self))")
            #expect(ourParts[1] == appleParts[1], "\(name) claims: ours \(String(decoding: base64URLDecoded(ourParts[1]) ?? Data(), as: UTF8.self)), Apple's \(String(decoding: base64URLDecoded(appleParts[1]) ?? Data(), as: UTF8.self))")
            #expect(result["oursVerifies"] as? Bool == true, "\(name): our signature does not verify in Python")
            #expect(result["oursDecoded"] is [String: Any], "\(name): \(result["oursDecoded"] ?? "nil")")
            let appleSignature = try #require(base64URLDecoded(appleParts[2]))
            #expect(throws: Never.self) { try publicKey.verifyES256(signature: appleSignature, over: Array((appleParts[0] + "." + appleParts[1]).utf8)) }
        }
    }
}
