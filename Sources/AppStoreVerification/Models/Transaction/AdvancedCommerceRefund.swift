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

    /// Creates a value with the members given, for tests and tools; a member left out is absent from the JSON.
    ///
    /// Every member is as documented on its property; dates are kept to whole milliseconds, as Apple
    /// writes them. A member given as `nil` is absent from the JSON.
    public init(
        refundAmount: Int64? = nil,
        refundDate: Date? = nil,
        refundReason: AdvancedCommerceRefundReason? = nil,
        refundType: AdvancedCommerceRefundType? = nil
    ) {
        self.refundAmount = refundAmount
        self.refundDate = refundDate.map(AppStoreJSON.wholeMilliseconds)
        self.refundReason = refundReason
        self.refundType = refundType
    }
}
