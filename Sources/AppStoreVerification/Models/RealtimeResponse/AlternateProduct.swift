import Foundation

/// A switch-plan retention message and the subscription it suggests, chosen in a real-time response
/// (Apple's `alternateProduct`).
///
/// The message must be `APPROVED` and have no image; the product should be in the same
/// subscription group as the customer's. The identifier is written as a lowercase UUID.
///
/// See [alternateProduct](https://developer.apple.com/documentation/retentionmessaging/alternateproduct).
public struct AlternateProduct: Codable, Hashable, Sendable {
    /// The identifier of the message to show, as you uploaded it.
    public var messageIdentifier: UUID?

    /// The product identifier of the subscription to suggest.
    public var productId: String?

    /// How the suggested subscription is billed, for a subscription with a commitment.
    public var billingPlanType: BillingPlanType?

    /// Creates a switch-plan choice.
    ///
    /// - Parameters: as the properties describe.
    public init(messageIdentifier: UUID?, productId: String?, billingPlanType: BillingPlanType? = nil) {
        self.messageIdentifier = messageIdentifier
        self.productId = productId
        self.billingPlanType = billingPlanType
    }

    private enum CodingKeys: String, CodingKey { case messageIdentifier, productId, billingPlanType }

    /// Decodes Apple's JSON; an identifier that is not a UUID is an error.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.messageIdentifier = try RealtimeResponseBody.decodeUUID(in: container, forKey: .messageIdentifier)
        self.productId = try container.decodeIfPresent(String.self, forKey: .productId)
        self.billingPlanType = try container.decodeIfPresent(BillingPlanType.self, forKey: .billingPlanType)
    }

    /// Encodes Apple's JSON, the identifier as a lowercase UUID; absent members are left out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(messageIdentifier?.uuidString.lowercased(), forKey: .messageIdentifier)
        try container.encodeIfPresent(productId, forKey: .productId)
        try container.encodeIfPresent(billingPlanType, forKey: .billingPlanType)
    }
}
