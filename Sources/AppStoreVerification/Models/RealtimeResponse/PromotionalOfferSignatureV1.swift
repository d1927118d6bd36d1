import Foundation

/// A promotional offer signed in the original (V1) format, with the values it signs (Apple's
/// `promotionalOfferSignatureV1`).
///
/// The values must be those given to ``PromotionalOfferSignatureCreator``; the nonce and app
/// account token are written as lowercase UUIDs, as Apple's library writes them.
///
/// See [promotionalOfferSignatureV1](https://developer.apple.com/documentation/retentionmessaging/promotionaloffersignaturev1).
public struct PromotionalOfferSignatureV1: Codable, Hashable, Sendable {
    /// The base64 signature ``PromotionalOfferSignatureCreator`` made.
    public var encodedSignature: String

    /// The subscription's product identifier.
    public var productId: String

    /// The one-time UUID that was signed.
    public var nonce: UUID

    /// The time that was signed, in milliseconds since 1970.
    public var timestamp: Int64

    /// The identifier of the key that made the signature.
    public var keyId: String

    /// The promotional offer identifier set up in App Store Connect.
    public var offerIdentifier: String

    /// The app account token that was signed, if any.
    public var appAccountToken: UUID?

    /// Creates a V1 signature with the values it signs.
    ///
    /// - Parameters: as the properties describe.
    public init(encodedSignature: String, productId: String, nonce: UUID, timestamp: Int64, keyId: String, offerIdentifier: String,
                appAccountToken: UUID? = nil) {
        self.encodedSignature = encodedSignature
        self.productId = productId
        self.nonce = nonce
        self.timestamp = timestamp
        self.keyId = keyId
        self.offerIdentifier = offerIdentifier
        self.appAccountToken = appAccountToken
    }

    private enum CodingKeys: String, CodingKey {
        case encodedSignature, productId, nonce, timestamp, keyId, offerIdentifier, appAccountToken
    }

    /// Decodes Apple's JSON; a nonce or token that is not a UUID is an error.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.encodedSignature = try container.decode(String.self, forKey: .encodedSignature)
        self.productId = try container.decode(String.self, forKey: .productId)
        self.nonce = try RealtimeResponseBody.decodeRequiredUUID(in: container, forKey: .nonce)
        self.timestamp = try container.decode(Int64.self, forKey: .timestamp)
        self.keyId = try container.decode(String.self, forKey: .keyId)
        self.offerIdentifier = try container.decode(String.self, forKey: .offerIdentifier)
        self.appAccountToken = try RealtimeResponseBody.decodeUUID(in: container, forKey: .appAccountToken)
    }

    /// Encodes Apple's JSON, the nonce and token as lowercase UUIDs; no token, no member.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(encodedSignature, forKey: .encodedSignature)
        try container.encode(productId, forKey: .productId)
        try container.encode(nonce.uuidString.lowercased(), forKey: .nonce)
        try container.encode(timestamp, forKey: .timestamp)
        try container.encode(keyId, forKey: .keyId)
        try container.encode(offerIdentifier, forKey: .offerIdentifier)
        try container.encodeIfPresent(appAccountToken?.uuidString.lowercased(), forKey: .appAccountToken)
    }
}
