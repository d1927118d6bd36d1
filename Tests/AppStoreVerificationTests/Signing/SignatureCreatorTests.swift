import AppStoreVerificationTestSupport
import Foundation
import Testing
@testable import AppStoreVerification

@Suite("App Store request signature creators", .enabled(if: SigningTestKeys.isAvailable, "needs the openssl command to make test keys"))
struct SignatureCreatorTests {
    static let nonce = UUID(uuidString: "A1B2C3D4-E5F6-4789-8ABC-DEF012345678") ?? UUID()
    static let issuedAt = Date(timeIntervalSince1970: 1_700_000_000.9)

    func key() throws -> SigningKey { try SigningKey(contentsOf: SigningTestKeys.require().pkcs8) }

    /// The header and claims of `jws`, after checking its signature under `key`.
    func verifiedParts(_ jws: String, key: SigningKey) throws -> (header: String, claims: String) {
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        try #require(parts.count == 3)
        let signature = try #require(base64URLDecoded(parts[2]))
        try PublicKey(subjectPublicKeyInfo: key.publicKeyDER).verifyES256(signature: signature, over: Array((parts[0] + "." + parts[1]).utf8))
        return (String(decoding: try #require(base64URLDecoded(parts[0])), as: UTF8.self),
                String(decoding: try #require(base64URLDecoded(parts[1])), as: UTF8.self))
    }

    @Test("V1: the signed text joins the values with U+2063, lowercases username and nonce; the DER signature verifies")
    func promotionalOfferV1() throws {
        let key = try key()
        let creator = PromotionalOfferSignatureCreator(signingKey: key, keyId: "KEYID", bundleId: "com.example.app")
        let token = UUID(uuidString: "7E3FB20B-4CDB-47CC-936D-99D65F608138")
        let text = creator.signedText(productIdentifier: "product", subscriptionOfferID: "offer", applicationUsername: token?.uuidString ?? "",
                                      nonce: Self.nonce, timestamp: 1_698_148_900_000)
        #expect(text == "com.example.app\u{2063}KEYID\u{2063}product\u{2063}offer\u{2063}7e3fb20b-4cdb-47cc-936d-99d65f608138\u{2063}a1b2c3d4-e5f6-4789-8abc-def012345678\u{2063}1698148900000")
        // A Date is signed as whole milliseconds, rounded to the nearest.
        let signature = try creator.createSignature(productIdentifier: "product", subscriptionOfferID: "offer", appAccountToken: token,
                                                    nonce: Self.nonce, timestamp: Date(timeIntervalSince1970: 1_698_148_899.9996))
        let der = try #require(Data(base64Encoded: signature))
        let raw = try #require(ECDSASignatureEncoding.raw(fromDER: der))
        try PublicKey(subjectPublicKeyInfo: key.publicKeyDER).verifyES256(signature: raw, over: Array(text.utf8))
        #expect(creator.signedText(productIdentifier: "p", subscriptionOfferID: "o", applicationUsername: "", nonce: Self.nonce, timestamp: 0)
            .hasSuffix("\u{2063}p\u{2063}o\u{2063}\u{2063}a1b2c3d4-e5f6-4789-8abc-def012345678\u{2063}0"))
    }

    @Test("V1: a time is signed as whole milliseconds rounded to the nearest; one milliseconds cannot hold is refused")
    func promotionalOfferV1Milliseconds() throws {
        #expect(PromotionalOfferSignatureCreator.milliseconds(Date(timeIntervalSince1970: 1_698_148_900.0004)) == 1_698_148_900_000)
        #expect(PromotionalOfferSignatureCreator.milliseconds(Date(timeIntervalSince1970: 1_698_148_900.0006)) == 1_698_148_900_001)
        #expect(PromotionalOfferSignatureCreator.milliseconds(Date(timeIntervalSince1970: 0)) == 0)
        // Every whole millisecond given as a Date comes back as itself (the CLI's --timestamp).
        for milliseconds: Int64 in [1, 999, 1_698_148_900_123, 9_999_999_999_999, 4_102_444_800_001] {
            #expect(PromotionalOfferSignatureCreator.milliseconds(Date(timeIntervalSince1970: Double(milliseconds) / 1000)) == milliseconds)
        }
        #expect(PromotionalOfferSignatureCreator.milliseconds(Date(timeIntervalSince1970: .infinity)) == nil)
        let creator = PromotionalOfferSignatureCreator(signingKey: try key(), keyId: "KEYID", bundleId: "com.example.app")
        #expect(throws: SignatureCreationError.self) {
            try creator.createSignature(productIdentifier: "p", subscriptionOfferID: "o", applicationUsername: "", nonce: Self.nonce,
                                        timestamp: Date(timeIntervalSince1970: 1e13))
        }
    }

    @Test("a nonce left out is a fresh random version 4 UUID")
    func defaultNonce() throws {
        var seen = Set<UUID>()
        for _ in 0..<2_000 {
            let nonce = UUID.randomNonce()
            let bytes = withUnsafeBytes(of: nonce.uuid) { Array($0) }
            #expect(bytes[6] >> 4 == 4, "version nibble of \(nonce)")
            #expect(bytes[8] >> 6 == 0b10, "variant bits of \(nonce)")
            seen.insert(nonce)
        }
        #expect(seen.count == 2_000)
        #expect(seen.allSatisfy { $0.lowercasedText == $0.uuidString.lowercased() })
        #expect(Self.nonce.lowercasedText == "a1b2c3d4-e5f6-4789-8abc-def012345678")
        // Every random bit varies: OR and AND over the UUIDs leave only the fixed bits.
        let or = seen.reduce(into: [UInt8](repeating: 0, count: 16)) { acc, id in withUnsafeBytes(of: id.uuid) { for i in 0..<16 { acc[i] |= $0[i] } } }
        let and = seen.reduce(into: [UInt8](repeating: 0xFF, count: 16)) { acc, id in withUnsafeBytes(of: id.uuid) { for i in 0..<16 { acc[i] &= $0[i] } } }
        #expect(or == [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x4F, 0xFF, 0xBF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
        #expect(and == [0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, 0])
        // A creator given no nonce writes one: lowercase, version 4, another each time.
        let creator = PromotionalOfferV2SignatureCreator(signingKey: try key(), keyId: "KEYID", issuerId: "issuer", bundleId: "com.example.app")
        var nonces = Set<String>()
        for _ in 0..<3 {
            let claims = try verifiedParts(try creator.createSignature(productId: "p", offerIdentifier: "o"), key: try key()).claims
            let object = try #require(try JSONSerialization.jsonObject(with: Data(claims.utf8)) as? [String: Any])
            let nonce = try #require(object["nonce"] as? String)
            #expect(nonce == nonce.lowercased() && UUID(uuidString: nonce) != nil && Array(nonce)[14] == "4")
            nonces.insert(nonce)
        }
        #expect(nonces.count == 3)
    }

    @Test("V1 from PEM text refuses a bad key with a SigningKeyError")
    func promotionalOfferBadKey() {
        #expect(throws: SigningKeyError.self) { try PromotionalOfferSignatureCreator(privateKey: "nope", keyId: "K", bundleId: "B") }
    }

    @Test("promotional offer V2: header and claims as Apple's library writes them; transactionId only when given")
    func promotionalOfferV2() throws {
        let key = try key()
        let creator = PromotionalOfferV2SignatureCreator(signingKey: key, keyId: "KEYID", issuerId: "issuer", bundleId: "com.example.app")
        let with = try verifiedParts(try creator.createSignature(productId: "product", offerIdentifier: "offer", transactionId: "42", nonce: Self.nonce, issuedAt: Self.issuedAt), key: key)
        #expect(with.header == #"{"alg":"ES256","kid":"KEYID","typ":"JWT"}"#)
        #expect(with.claims == #"{"productId":"product","offerIdentifier":"offer","transactionId":"42","bid":"com.example.app","iss":"issuer","aud":"promotional-offer","iat":1700000000,"nonce":"a1b2c3d4-e5f6-4789-8abc-def012345678"}"#)
        let without = try verifiedParts(try creator.createSignature(productId: "product", offerIdentifier: "offer", nonce: Self.nonce, issuedAt: Self.issuedAt), key: key)
        #expect(!without.claims.contains("transactionId"))
        let fresh = try verifiedParts(try creator.createSignature(productId: "p", offerIdentifier: "o"), key: key)
        #expect(!fresh.claims.contains("a1b2c3d4"))
    }

    @Test("introductory offer eligibility: the boolean claim and its audience")
    func introductoryOffer() throws {
        let key = try key()
        let creator = IntroductoryOfferEligibilitySignatureCreator(signingKey: key, keyId: "KEYID", issuerId: "issuer", bundleId: "com.example.app")
        let parts = try verifiedParts(try creator.createSignature(productId: "product", allowIntroductoryOffer: false, transactionId: "42", nonce: Self.nonce, issuedAt: Self.issuedAt), key: key)
        #expect(parts.claims == #"{"productId":"product","allowIntroductoryOffer":false,"transactionId":"42","bid":"com.example.app","iss":"issuer","aud":"introductory-offer-eligibility","iat":1700000000,"nonce":"a1b2c3d4-e5f6-4789-8abc-def012345678"}"#)
    }

    struct Request: Encodable {
        var operation = "CREATE_SUBSCRIPTION"
        var version = "1"
        var url = "https://example.com/a"
    }

    @Test("Advanced Commerce: the request claim is the base64 of the request JSON; a non-object is refused")
    func advancedCommerce() throws {
        let key = try key()
        let creator = AdvancedCommerceInAppSignatureCreator(signingKey: key, keyId: "KEYID", issuerId: "issuer", bundleId: "com.example.app")
        let text = "{\"b\": 1, \"a\": [true]}"
        let parts = try verifiedParts(try creator.createSignature(requestJSON: Data(("\n " + text + "\n").utf8), nonce: Self.nonce, issuedAt: Self.issuedAt), key: key)
        let encoded = Data(text.utf8).base64EncodedString()
        #expect(parts.claims == #"{"request":"\#(encoded)","bid":"com.example.app","iss":"issuer","aud":"advanced-commerce-api","iat":1700000000,"nonce":"a1b2c3d4-e5f6-4789-8abc-def012345678"}"#)

        let encodable = try verifiedParts(try creator.createSignature(advancedCommerceInAppRequest: Request(), nonce: Self.nonce, issuedAt: Self.issuedAt), key: key)
        let expected = Data(#"{"operation":"CREATE_SUBSCRIPTION","url":"https://example.com/a","version":"1"}"#.utf8).base64EncodedString()
        #expect(encodable.claims.hasPrefix(#"{"request":"\#(expected)""#))

        for bad in ["", "  ", "[1]", "\"text\"", "{\"a\":1,\"a\":2}", "{", "garbage"] {
            let error = try #require(throws: SignatureCreationError.self) { try creator.createSignature(requestJSON: Data(bad.utf8)) }
            #expect(error.code == .invalidRequest, "\(bad)")
        }
        #expect(throws: SignatureCreationError.self) { try creator.createSignature(advancedCommerceInAppRequest: [1, 2]) }
    }
}
