import Foundation

/// A retention message with a promotional offer, chosen in a real-time response (Apple's
/// `promotionalOffer`): the offer signed in the V2 (JWS) format or in the original V1 format.
///
/// Give one signature. ``RealtimeResponseBody`` has factory methods that sign the offer with a
/// ``PromotionalOfferV2SignatureCreator`` or a ``PromotionalOfferSignatureCreator``. The identifier
/// is written as a lowercase UUID.
///
/// See [promotionalOffer](https://developer.apple.com/documentation/retentionmessaging/promotionaloffer).
public struct PromotionalOffer: Codable, Hashable, Sendable {
    /// The identifier of the message to show with the offer, as you uploaded it.
    public var messageIdentifier: UUID?

    /// The offer's signature in the V2 format: the compact JWS of
    /// ``PromotionalOfferV2SignatureCreator``.
    public var promotionalOfferSignatureV2: String?

    /// The offer's signature in the V1 format, with the values it signs.
    public var promotionalOfferSignatureV1: PromotionalOfferSignatureV1?

    /// Creates a promotional offer choice.
    ///
    /// - Parameters: as the properties describe.
    public init(messageIdentifier: UUID?, promotionalOfferSignatureV2: String? = nil,
                promotionalOfferSignatureV1: PromotionalOfferSignatureV1? = nil) {
        self.messageIdentifier = messageIdentifier
        self.promotionalOfferSignatureV2 = promotionalOfferSignatureV2
        self.promotionalOfferSignatureV1 = promotionalOfferSignatureV1
    }

    private enum CodingKeys: String, CodingKey { case messageIdentifier, promotionalOfferSignatureV2, promotionalOfferSignatureV1 }

    /// Decodes Apple's JSON; an identifier that is not a UUID is an error.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.messageIdentifier = try RealtimeResponseBody.decodeUUID(in: container, forKey: .messageIdentifier)
        self.promotionalOfferSignatureV2 = try container.decodeIfPresent(String.self, forKey: .promotionalOfferSignatureV2)
        self.promotionalOfferSignatureV1 = try container.decodeIfPresent(PromotionalOfferSignatureV1.self, forKey: .promotionalOfferSignatureV1)
    }

    /// Encodes Apple's JSON, the identifier as a lowercase UUID; absent members are left out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(messageIdentifier?.uuidString.lowercased(), forKey: .messageIdentifier)
        try container.encodeIfPresent(promotionalOfferSignatureV2, forKey: .promotionalOfferSignatureV2)
        try container.encodeIfPresent(promotionalOfferSignatureV1, forKey: .promotionalOfferSignatureV1)
    }
}
