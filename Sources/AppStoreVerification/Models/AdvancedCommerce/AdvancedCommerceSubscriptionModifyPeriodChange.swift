/// A new period for an Advanced Commerce subscription (Apple's `SubscriptionModifyPeriodChange`).
///
/// See [SubscriptionModifyPeriodChange](https://developer.apple.com/documentation/advancedcommerceapi/subscriptionmodifyperiodchange).
public struct AdvancedCommerceSubscriptionModifyPeriodChange: Codable, Hashable, Sendable {
    /// When the new period takes effect.
    public var effective: AdvancedCommerceEffective

    /// The new duration of one subscription period.
    public var period: AdvancedCommercePeriod

    /// Creates a period change.
    ///
    /// - Parameters: as the properties describe.
    public init(effective: AdvancedCommerceEffective, period: AdvancedCommercePeriod) {
        self.effective = effective
        self.period = period
    }
}
