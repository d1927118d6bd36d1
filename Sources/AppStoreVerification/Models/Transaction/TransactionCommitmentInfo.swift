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
}
