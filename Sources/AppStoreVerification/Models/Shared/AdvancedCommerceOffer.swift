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

    /// Creates a value with the members given, for tests and tools; a member left out is absent from the JSON.
    ///
    /// Every member is as documented on its property; dates are kept to whole milliseconds, as Apple
    /// writes them. A member given as `nil` is absent from the JSON.
    public init(
        periodCount: Int32? = nil,
        price: Int64? = nil,
        period: AdvancedCommerceOfferPeriod? = nil,
        reason: AdvancedCommerceOfferReason? = nil
    ) {
        self.periodCount = periodCount
        self.price = price
        self.period = period
        self.reason = reason
    }
}
