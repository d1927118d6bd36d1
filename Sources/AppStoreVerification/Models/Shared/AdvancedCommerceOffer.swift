import Foundation

/// A discount offer on an item of an Advanced Commerce auto-renewable subscription.
public struct AdvancedCommerceOffer: Codable, Hashable, Sendable {
    /// The number of periods the offer is active.
    public let periodCount: Int32?

    /// The price of the offer, in milliunits.
    public let price: Int64?

    /// The period of the offer.
    public let period: AdvancedCommerceOfferPeriod?

    /// The reason for the offer.
    public let reason: AdvancedCommerceOfferReason?
}
