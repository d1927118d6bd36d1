import Foundation

/// An external purchase token, reported by an `EXTERNAL_PURCHASE_TOKEN` notification.
public struct ExternalPurchaseToken: Codable, Hashable, Sendable {
    /// The unique identifier of the token; in sandbox it starts with `SANDBOX`.
    public let externalPurchaseId: String?

    /// The time the system created the token.
    public let tokenCreationDate: Date?

    /// The unique identifier of the app in the App Store.
    public let appAppleId: Int64?

    /// The bundle identifier of the app.
    public let bundleId: String?
}
