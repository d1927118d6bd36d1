import Foundation

/// A refund of an item in an Advanced Commerce transaction.
public struct AdvancedCommerceRefund: Codable, Hashable, Sendable {
    /// The amount refunded, in milliunits.
    public let refundAmount: Int64?

    /// The time of the refund.
    public let refundDate: Date?

    /// The reason for the refund.
    public let refundReason: AdvancedCommerceRefundReason?

    /// The type of the refund: full, prorated or custom.
    public let refundType: AdvancedCommerceRefundType?
}
