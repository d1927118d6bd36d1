import Foundation

extension RealtimeResponseBody {
    /// A response that shows a text message, with or without an image.
    ///
    /// - Parameter messageIdentifier: the identifier you uploaded the message with; it must be `APPROVED`.
    public static func message(_ messageIdentifier: UUID) -> RealtimeResponseBody {
        RealtimeResponseBody(message: RealtimeMessage(messageIdentifier: messageIdentifier))
    }

    /// A response that suggests switching to another subscription.
    ///
    /// - Parameters:
    ///   - messageIdentifier: an `APPROVED` message without an image.
    ///   - productId: the subscription to suggest, in the customer's subscription group.
    ///   - billingPlanType: how the suggested subscription is billed, for one with a commitment.
    public static func alternateProduct(messageIdentifier: UUID, productId: String,
                                        billingPlanType: BillingPlanType? = nil) -> RealtimeResponseBody {
        RealtimeResponseBody(alternateProduct: AlternateProduct(messageIdentifier: messageIdentifier, productId: productId,
                                                                billingPlanType: billingPlanType))
    }

    /// A response that offers a promotional offer signed in the V2 format.
    ///
    /// - Parameters:
    ///   - messageIdentifier: the `APPROVED` message to show with the offer.
    ///   - signatureV2: the compact JWS of ``PromotionalOfferV2SignatureCreator``.
    public static func promotionalOffer(messageIdentifier: UUID, signatureV2: String) -> RealtimeResponseBody {
        RealtimeResponseBody(promotionalOffer: PromotionalOffer(messageIdentifier: messageIdentifier, promotionalOfferSignatureV2: signatureV2))
    }

    /// A response that offers a promotional offer signed in the V1 format.
    ///
    /// - Parameters:
    ///   - messageIdentifier: the `APPROVED` message to show with the offer.
    ///   - signatureV1: the signature and the values it signs.
    public static func promotionalOffer(messageIdentifier: UUID, signatureV1: PromotionalOfferSignatureV1) -> RealtimeResponseBody {
        RealtimeResponseBody(promotionalOffer: PromotionalOffer(messageIdentifier: messageIdentifier, promotionalOfferSignatureV1: signatureV1))
    }

    /// A response that offers an Advanced Commerce retention offer or switch-plan recommendation.
    ///
    /// - Parameters:
    ///   - messageIdentifier: the `APPROVED` message to show.
    ///   - advancedCommerceData: the base64-encoded JSON object, holding a JWS, that describes it.
    public static func advancedCommerce(messageIdentifier: UUID, advancedCommerceData: String) -> RealtimeResponseBody {
        RealtimeResponseBody(advancedCommerceInfo: AdvancedCommerceInfo(messageIdentifier: messageIdentifier, advancedCommerceData: advancedCommerceData))
    }

    /// A response that offers a promotional offer, signed here in the V2 (JWS) format.
    ///
    /// - Parameters:
    ///   - messageIdentifier: the `APPROVED` message to show with the offer.
    ///   - productId: the subscription's product identifier.
    ///   - offerIdentifier: the promotional offer identifier set up in App Store Connect.
    ///   - transactionId: a transaction ID of the customer's (the request's
    ///     ``DecodedRealtimeRequestBody/originalTransactionId``); optional, but recommended.
    ///   - creator: your promotional offer V2 signature creator.
    ///   - nonce: the `nonce` claim; `nil` (the default) for a new random UUID.
    ///   - issuedAt: the `iat` claim; now by default.
    /// - Throws: ``SignatureCreationError`` when signing fails.
    public static func promotionalOffer(messageIdentifier: UUID, productId: String, offerIdentifier: String, transactionId: String? = nil,
                                        signedBy creator: PromotionalOfferV2SignatureCreator, nonce: UUID? = nil,
                                        issuedAt: Date = Date()) throws(SignatureCreationError) -> RealtimeResponseBody {
        let jws = try creator.createSignature(productId: productId, offerIdentifier: offerIdentifier, transactionId: transactionId,
                                              nonce: nonce, issuedAt: issuedAt)
        return promotionalOffer(messageIdentifier: messageIdentifier, signatureV2: jws)
    }

    /// A response that offers a promotional offer, signed here in the V1 format.
    ///
    /// - Parameters:
    ///   - messageIdentifier: the `APPROVED` message to show with the offer.
    ///   - productId: the subscription's product identifier.
    ///   - offerIdentifier: the promotional offer identifier set up in App Store Connect.
    ///   - appAccountToken: the app account token to sign, if any.
    ///   - creator: your promotional offer signature creator.
    ///   - keyId: the identifier of `creator`'s key, which the response carries (the creator keeps
    ///     its own copy private): give the same value the creator was made with.
    ///   - nonce: the one-time UUID to sign; `nil` (the default) for a new random UUID.
    ///   - timestamp: the time to sign; now by default. The response carries it as whole
    ///     milliseconds since 1970, rounded to the nearest, as signed.
    /// - Throws: ``SignatureCreationError`` when signing fails.
    public static func promotionalOffer(messageIdentifier: UUID, productId: String, offerIdentifier: String, appAccountToken: UUID? = nil,
                                        signedBy creator: PromotionalOfferSignatureCreator, keyId: String, nonce: UUID? = nil,
                                        timestamp: Date = Date()) throws(SignatureCreationError) -> RealtimeResponseBody {
        let nonce = nonce ?? UUID.randomNonce()
        let signature = try creator.createSignature(productIdentifier: productId, subscriptionOfferID: offerIdentifier,
                                                    appAccountToken: appAccountToken, nonce: nonce, timestamp: timestamp)
        // createSignature refuses a time that has no milliseconds value.
        let milliseconds = PromotionalOfferSignatureCreator.milliseconds(timestamp) ?? 0
        return promotionalOffer(messageIdentifier: messageIdentifier, signatureV1: PromotionalOfferSignatureV1(
            encodedSignature: signature, productId: productId, nonce: nonce, timestamp: milliseconds, keyId: keyId,
            offerIdentifier: offerIdentifier, appAccountToken: appAccountToken))
    }

    /// The response as JSON, to send back with `Content-Type: application/json`: keys sorted,
    /// identifiers as lowercase UUIDs, absent members left out (as ``AppStoreJSON/makeEncoder()`` encodes it).
    public var jsonRepresentation: Data {
        // These members are strings, integers and UUIDs only, which always encode.
        (try? AppStoreJSON.encode(self)) ?? Data("{}".utf8)
    }
}
