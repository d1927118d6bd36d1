import Foundation

/// What happens when the current commitment of a subscription, billed in installments over a
/// commitment period, ends.
public struct RenewalCommitmentInfo: Codable, Hashable, Sendable {
    /// The product identifier of the product that renews when the commitment ends.
    public let commitmentAutoRenewProductId: String?

    /// Whether the commitment renews automatically when it ends.
    public let commitmentAutoRenewStatus: AutoRenewStatus?

    /// How the customer will pay for the next commitment: up front or monthly.
    public let commitmentRenewalBillingPlanType: BillingPlanType?

    /// The time the commitment renews.
    public let commitmentRenewalDate: Date?

    /// The price, in milliunits, of the next commitment.
    public let commitmentRenewalPrice: Int64?

    /// Creates a value with the members given, for tests and tools; a member left out is absent from the JSON.
    ///
    /// Every member is as documented on its property; dates are kept to whole milliseconds, as Apple
    /// writes them. A member given as `nil` is absent from the JSON.
    public init(
        commitmentAutoRenewProductId: String? = nil,
        commitmentAutoRenewStatus: AutoRenewStatus? = nil,
        commitmentRenewalBillingPlanType: BillingPlanType? = nil,
        commitmentRenewalDate: Date? = nil,
        commitmentRenewalPrice: Int64? = nil
    ) {
        self.commitmentAutoRenewProductId = commitmentAutoRenewProductId
        self.commitmentAutoRenewStatus = commitmentAutoRenewStatus
        self.commitmentRenewalBillingPlanType = commitmentRenewalBillingPlanType
        self.commitmentRenewalDate = commitmentRenewalDate.map(AppStoreJSON.wholeMilliseconds)
        self.commitmentRenewalPrice = commitmentRenewalPrice
    }
}
