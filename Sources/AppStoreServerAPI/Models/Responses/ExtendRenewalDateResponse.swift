import Foundation

/// The outcome of extending one subscription's renewal date (Apple's `ExtendRenewalDateResponse`).
public struct ExtendRenewalDateResponse: Sendable, Hashable, Decodable {
    /// The subscription's original transaction ID.
    public let originalTransactionId: String?
    /// The subscription period's ID.
    public let webOrderLineItemId: String?
    /// Whether the renewal date was extended.
    public let success: Bool?
    /// The new renewal date.
    public let effectiveDate: Date?
}
