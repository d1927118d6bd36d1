import Foundation

/// The progress of a request to extend every active subscription of a product (Apple's
/// `MassExtendRenewalDateStatusResponse`).
public struct MassExtendRenewalDateStatusResponse: Sendable, Hashable, Decodable {
    /// Your request identifier.
    public let requestIdentifier: String?
    /// Whether the App Store finished the request.
    public let complete: Bool?
    /// When it finished.
    public let completeDate: Date?
    /// How many subscriptions were extended.
    public let succeededCount: Int64?
    /// How many subscriptions could not be extended.
    public let failedCount: Int64?
}
