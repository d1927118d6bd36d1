import Foundation

/// A retention offer or switch-plan recommendation for an Advanced Commerce API subscription,
/// chosen in a real-time response (Apple's `advancedCommerceInfo`).
///
/// Not to be confused with the `advancedCommerceInfo` members of transactions and renewal info
/// (``AdvancedCommerceTransactionInfo``, ``AdvancedCommerceRenewalInfo``). The identifier is written
/// as a lowercase UUID.
///
/// See [advancedCommerceInfo](https://developer.apple.com/documentation/retentionmessaging/advancedcommerceinfo).
public struct AdvancedCommerceInfo: Codable, Hashable, Sendable {
    /// The identifier of the message to show with the offer or recommendation, as you uploaded it.
    public var messageIdentifier: UUID?

    /// The base64-encoded JSON object, holding a JWS, that describes the offer or recommendation
    /// (Apple's `advancedCommerceData`).
    public var advancedCommerceData: String?

    /// Creates an Advanced Commerce choice.
    ///
    /// - Parameters: as the properties describe.
    public init(messageIdentifier: UUID?, advancedCommerceData: String?) {
        self.messageIdentifier = messageIdentifier
        self.advancedCommerceData = advancedCommerceData
    }

    private enum CodingKeys: String, CodingKey { case messageIdentifier, advancedCommerceData }

    /// Decodes Apple's JSON; an identifier that is not a UUID is an error.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.messageIdentifier = try RealtimeResponseBody.decodeUUID(in: container, forKey: .messageIdentifier)
        self.advancedCommerceData = try container.decodeIfPresent(String.self, forKey: .advancedCommerceData)
    }

    /// Encodes Apple's JSON, the identifier as a lowercase UUID; absent members are left out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(messageIdentifier?.uuidString.lowercased(), forKey: .messageIdentifier)
        try container.encodeIfPresent(advancedCommerceData, forKey: .advancedCommerceData)
    }
}
