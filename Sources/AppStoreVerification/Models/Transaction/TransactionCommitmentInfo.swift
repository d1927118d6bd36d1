import Foundation

/// The commitment a transaction belongs to, for a subscription the customer pays in installments
/// over a commitment period.
public struct TransactionCommitmentInfo: Codable, Hashable, Sendable {
    /// The number of the billing period this transaction pays for within the commitment, starting at 1.
    public let billingPeriodNumber: Int32?

    /// The time the commitment period ends.
    public let commitmentExpiresDate: Date?

    /// The total price, in milliunits, of the whole commitment.
    public let commitmentPrice: Int64?

    /// The number of billing periods in the commitment.
    public let totalBillingPeriods: Int32?

    /// Creates a value with the members given, for tests and tools; a member left out is absent from the JSON.
    ///
    /// Every member is as documented on its property; dates are kept to whole milliseconds, as Apple
    /// writes them. A member given as `nil` is absent from the JSON.
    public init(
        billingPeriodNumber: Int32? = nil,
        commitmentExpiresDate: Date? = nil,
        commitmentPrice: Int64? = nil,
        totalBillingPeriods: Int32? = nil
    ) {
        self.billingPeriodNumber = billingPeriodNumber
        self.commitmentExpiresDate = commitmentExpiresDate.map(AppStoreJSON.wholeMilliseconds)
        self.commitmentPrice = commitmentPrice
        self.totalBillingPeriods = totalBillingPeriods
    }
}
