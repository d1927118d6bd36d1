import Foundation

/// Your answer to the App Store's real-time request for a retention message (Apple's
/// `RealtimeResponseBody`), the counterpart of ``DecodedRealtimeRequestBody``.
///
/// Give one of the mutually exclusive choices: a ``message``, an ``alternateProduct``, a
/// ``promotionalOffer`` or an ``advancedCommerceInfo``. The factory methods
/// (``message(_:)``, ``alternateProduct(messageIdentifier:productId:billingPlanType:)``,
/// ``promotionalOffer(messageIdentifier:signatureV2:)`` and the ones that sign the offer) build
/// one; ``jsonRepresentation`` is the body to send back.
///
/// See [RealtimeResponseBody](https://developer.apple.com/documentation/retentionmessaging/realtimeresponsebody).
public struct RealtimeResponseBody: Codable, Hashable, Sendable {
    /// A text retention message, with or without an image.
    public var message: RealtimeMessage?

    /// A switch-plan retention message.
    public var alternateProduct: AlternateProduct?

    /// A retention message with a promotional offer.
    public var promotionalOffer: PromotionalOffer?

    /// A retention offer or switch-plan recommendation for an Advanced Commerce API subscription.
    public var advancedCommerceInfo: AdvancedCommerceInfo?

    /// Creates a response with the members given; give exactly one.
    ///
    /// - Parameters: as the properties describe.
    public init(message: RealtimeMessage? = nil, alternateProduct: AlternateProduct? = nil, promotionalOffer: PromotionalOffer? = nil,
                advancedCommerceInfo: AdvancedCommerceInfo? = nil) {
        self.message = message
        self.alternateProduct = alternateProduct
        self.promotionalOffer = promotionalOffer
        self.advancedCommerceInfo = advancedCommerceInfo
    }

    /// The member `key` as a UUID, `nil` when absent; text that is not a UUID is an error.
    static func decodeUUID<Key: CodingKey>(in container: KeyedDecodingContainer<Key>, forKey key: Key) throws -> UUID? {
        guard let text = try container.decodeIfPresent(String.self, forKey: key) else { return nil }
        guard let uuid = UUID(uuidString: text) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "\(key.stringValue) is not a UUID")
        }
        return uuid
    }

    /// The member `key` as a UUID; an absent member or text that is not a UUID is an error.
    static func decodeRequiredUUID<Key: CodingKey>(in container: KeyedDecodingContainer<Key>, forKey key: Key) throws -> UUID {
        let text = try container.decode(String.self, forKey: key)
        guard let uuid = UUID(uuidString: text) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "\(key.stringValue) is not a UUID")
        }
        return uuid
    }
}
