import AppStoreVerificationTestSupport
import Foundation
import Testing
import AppStoreVerification

/// The Retention Messaging real-time response models: Apple's JSON, the factory methods and the
/// ones that sign a promotional offer.
@Suite("Retention Messaging real-time responses")
struct RealtimeResponseTests {
    static let messageId = UUID(uuidString: "A1B2C3D4-E5F6-7890-A1B2-C3D4E5F67890") ?? UUID()
    static let nonce = UUID(uuidString: "E5F6A789-0123-4567-E5F6-A78901234567") ?? UUID()
    static let token = UUID(uuidString: "F6A78901-2345-6789-F6A7-890123456789") ?? UUID()

    @Test("each choice writes Apple's member names, identifiers in lowercase, nothing else")
    func choicesJSON() throws {
        #expect(text(.message(Self.messageId)) == #"{"message":{"messageIdentifier":"a1b2c3d4-e5f6-7890-a1b2-c3d4e5f67890"}}"#)
        #expect(text(.alternateProduct(messageIdentifier: Self.messageId, productId: "com.example.alternate.product", billingPlanType: .monthly))
            == #"{"alternateProduct":{"billingPlanType":"MONTHLY","messageIdentifier":"a1b2c3d4-e5f6-7890-a1b2-c3d4e5f67890","productId":"com.example.alternate.product"}}"#)
        #expect(text(.alternateProduct(messageIdentifier: Self.messageId, productId: "p"))
            == #"{"alternateProduct":{"messageIdentifier":"a1b2c3d4-e5f6-7890-a1b2-c3d4e5f67890","productId":"p"}}"#)
        #expect(text(.promotionalOffer(messageIdentifier: Self.messageId, signatureV2: "signature2"))
            == #"{"promotionalOffer":{"messageIdentifier":"a1b2c3d4-e5f6-7890-a1b2-c3d4e5f67890","promotionalOfferSignatureV2":"signature2"}}"#)
        let v1 = PromotionalOfferSignatureV1(encodedSignature: "base64encodedSignature", productId: "com.example.product", nonce: Self.nonce,
                                             timestamp: 1_698_148_900_000, keyId: "keyId123", offerIdentifier: "offer123", appAccountToken: Self.token)
        #expect(text(.promotionalOffer(messageIdentifier: Self.messageId, signatureV1: v1))
            == #"{"promotionalOffer":{"messageIdentifier":"a1b2c3d4-e5f6-7890-a1b2-c3d4e5f67890","promotionalOfferSignatureV1":{"appAccountToken":"f6a78901-2345-6789-f6a7-890123456789","encodedSignature":"base64encodedSignature","keyId":"keyId123","nonce":"e5f6a789-0123-4567-e5f6-a78901234567","offerIdentifier":"offer123","productId":"com.example.product","timestamp":1698148900000}}}"#)
        var noToken = v1
        noToken.appAccountToken = nil
        #expect(!text(.promotionalOffer(messageIdentifier: Self.messageId, signatureV1: noToken)).contains("appAccountToken"))
        #expect(text(.advancedCommerce(messageIdentifier: Self.messageId, advancedCommerceData: "eyJhbGciOiJFUzI1NiJ9.base64data"))
            == #"{"advancedCommerceInfo":{"advancedCommerceData":"eyJhbGciOiJFUzI1NiJ9.base64data","messageIdentifier":"a1b2c3d4-e5f6-7890-a1b2-c3d4e5f67890"}}"#)
        #expect(text(RealtimeResponseBody()) == "{}")
        // jsonRepresentation is AppStoreJSON's encoding.
        let body = RealtimeResponseBody.message(Self.messageId)
        #expect(body.jsonRepresentation == (try AppStoreJSON.encode(body)))
    }

    @Test("Apple's JSON decodes (uppercase identifiers included) and round-trips")
    func decodesApplesJSON() throws {
        // Apple's Swift library writes message identifiers in uppercase.
        let json = #"""
            {"promotionalOffer":{"messageIdentifier":"D4E5F6A7-8901-2345-D4E5-F6A789012345",
             "promotionalOfferSignatureV1":{"encodedSignature":"base64encodedSignature","productId":"com.example.product",
              "nonce":"e5f6a789-0123-4567-e5f6-a78901234567","timestamp":1698148900000,"keyId":"keyId123","offerIdentifier":"offer123",
              "appAccountToken":"f6a78901-2345-6789-f6a7-890123456789"}}}
            """#
        let body = try AppStoreJSON.decode(RealtimeResponseBody.self, from: Data(json.utf8))
        let offer = try #require(body.promotionalOffer)
        #expect(offer.messageIdentifier == UUID(uuidString: "d4e5f6a7-8901-2345-d4e5-f6a789012345"))
        #expect(offer.promotionalOfferSignatureV2 == nil)
        let v1 = try #require(offer.promotionalOfferSignatureV1)
        #expect(v1.nonce == Self.nonce && v1.appAccountToken == Self.token && v1.timestamp == 1_698_148_900_000 && v1.keyId == "keyId123")
        #expect(body.message == nil && body.alternateProduct == nil && body.advancedCommerceInfo == nil)
        #expect(try AppStoreJSON.decode(RealtimeResponseBody.self, from: body.jsonRepresentation) == body)

        for choice in [RealtimeResponseBody.message(Self.messageId),
                       .alternateProduct(messageIdentifier: Self.messageId, productId: "p", billingPlanType: .billedUpfront),
                       .promotionalOffer(messageIdentifier: Self.messageId, signatureV2: "jws"),
                       .advancedCommerce(messageIdentifier: Self.messageId, advancedCommerceData: "data")] {
            #expect(try AppStoreJSON.decode(RealtimeResponseBody.self, from: choice.jsonRepresentation) == choice)
            #expect(try JSONDecoder().decode(RealtimeResponseBody.self, from: JSONEncoder().encode(choice)) == choice)
        }
    }

    @Test("a billing plan type Apple adds later survives; an identifier that is no UUID does not decode")
    func unknownValuesAndBadIdentifiers() throws {
        let json = #"{"alternateProduct":{"messageIdentifier":"a1b2c3d4-e5f6-7890-a1b2-c3d4e5f67890","productId":"p","billingPlanType":"QUARTERLY"}}"#
        let body = try AppStoreJSON.decode(RealtimeResponseBody.self, from: Data(json.utf8))
        #expect(body.alternateProduct?.billingPlanType?.rawValue == "QUARTERLY")
        #expect(body.alternateProduct?.billingPlanType?.isDocumented == false)
        #expect(String(decoding: body.jsonRepresentation, as: UTF8.self).contains(#""billingPlanType":"QUARTERLY""#))
        for bad in [#"{"message":{"messageIdentifier":"nope"}}"#,
                    #"{"promotionalOffer":{"promotionalOfferSignatureV1":{"encodedSignature":"s","productId":"p","nonce":"x","timestamp":1,"keyId":"k","offerIdentifier":"o"}}}"#,
                    #"{"promotionalOffer":{"promotionalOfferSignatureV1":{"encodedSignature":"s","productId":"p","timestamp":1,"keyId":"k","offerIdentifier":"o"}}}"#,
                    #"{"advancedCommerceInfo":{"messageIdentifier":"123"}}"#] {
            #expect(throws: DecodingError.self, "\(bad)") { try AppStoreJSON.decode(RealtimeResponseBody.self, from: Data(bad.utf8)) }
        }
    }

    func text(_ body: RealtimeResponseBody) -> String {
        String(decoding: body.jsonRepresentation, as: UTF8.self)
    }
}

@Suite("Retention Messaging real-time responses, signed", .enabled(if: SigningTestKeys.isAvailable, "needs the openssl command to make test keys"))
struct RealtimeResponseSigningTests {
    func key() throws -> SigningKey { try SigningKey(contentsOf: SigningTestKeys.require().pkcs8) }

    @Test("the V2 factory signs the offer: a JWS whose claims name the product, offer, transaction and nonce")
    func signsV2() throws {
        let key = try key()
        let creator = PromotionalOfferV2SignatureCreator(signingKey: key, keyId: "KEYID", issuerId: "issuer", bundleId: "com.example.app")
        let body = try RealtimeResponseBody.promotionalOffer(messageIdentifier: RealtimeResponseTests.messageId, productId: "com.example.monthly",
                                                             offerIdentifier: "stay50", transactionId: "2000000123", signedBy: creator,
                                                             nonce: RealtimeResponseTests.nonce, issuedAt: Date(timeIntervalSince1970: 1_700_000_000))
        let offer = try #require(body.promotionalOffer)
        #expect(offer.messageIdentifier == RealtimeResponseTests.messageId)
        #expect(offer.promotionalOfferSignatureV1 == nil)
        let jws = try #require(offer.promotionalOfferSignatureV2)
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        try #require(parts.count == 3)
        let signature = try #require(base64URLDecoded(parts[2]))
        try PublicKey(subjectPublicKeyInfo: key.publicKeyDER).verifyES256(signature: signature, over: Array((parts[0] + "." + parts[1]).utf8))
        let claims = String(decoding: try #require(base64URLDecoded(parts[1])), as: UTF8.self)
        #expect(claims == #"{"productId":"com.example.monthly","offerIdentifier":"stay50","transactionId":"2000000123","bid":"com.example.app","iss":"issuer","aud":"promotional-offer","iat":1700000000,"nonce":"e5f6a789-0123-4567-e5f6-a78901234567"}"#)
    }

    @Test("the V1 factory signs the offer and carries the values it signed")
    func signsV1() throws {
        let key = try key()
        let creator = PromotionalOfferSignatureCreator(signingKey: key, keyId: "KEYID", bundleId: "com.example.app")
        let body = try RealtimeResponseBody.promotionalOffer(messageIdentifier: RealtimeResponseTests.messageId, productId: "com.example.monthly",
                                                             offerIdentifier: "stay50", appAccountToken: RealtimeResponseTests.token, signedBy: creator,
                                                             keyId: "KEYID", nonce: RealtimeResponseTests.nonce, timestamp: Date(timeIntervalSince1970: 1_698_148_900))
        let v1 = try #require(body.promotionalOffer?.promotionalOfferSignatureV1)
        #expect(body.promotionalOffer?.promotionalOfferSignatureV2 == nil)
        #expect(v1.productId == "com.example.monthly" && v1.offerIdentifier == "stay50" && v1.keyId == "KEYID")
        #expect(v1.nonce == RealtimeResponseTests.nonce && v1.timestamp == 1_698_148_900_000 && v1.appAccountToken == RealtimeResponseTests.token)
        let der = try #require(Data(base64Encoded: v1.encodedSignature))
        let raw = try #require(ECDSASignatureEncoding.raw(fromDER: der))
        let signed = ["com.example.app", "KEYID", "com.example.monthly", "stay50", "f6a78901-2345-6789-f6a7-890123456789",
                      "e5f6a789-0123-4567-e5f6-a78901234567", "1698148900000"].joined(separator: "\u{2063}")
        try PublicKey(subjectPublicKeyInfo: key.publicKeyDER).verifyES256(signature: raw, over: Array(signed.utf8))

        // Left out, the nonce is a fresh UUID and the timestamp now.
        let before = Int64(Date().timeIntervalSince1970 * 1000) - 1
        let fresh = try RealtimeResponseBody.promotionalOffer(messageIdentifier: RealtimeResponseTests.messageId, productId: "p", offerIdentifier: "o",
                                                              signedBy: creator, keyId: "KEYID")
        let after = Int64(Date().timeIntervalSince1970 * 1000) + 1
        let freshV1 = try #require(fresh.promotionalOffer?.promotionalOfferSignatureV1)
        #expect(freshV1.nonce != RealtimeResponseTests.nonce)
        #expect((before...after).contains(freshV1.timestamp))
        #expect(freshV1.appAccountToken == nil)
        #expect(!String(decoding: fresh.jsonRepresentation, as: UTF8.self).contains("appAccountToken"))
    }
}
