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

    /// The kind of custom link token, for external purchase custom link tokens.
    public let tokenType: ExternalPurchaseTokenType?

    /// The time a custom link token expires.
    public let tokenExpirationDate: Date?

    /// Creates an external purchase token, for tests and tools: the defaults describe a new sandbox token of `com.example.app`.
    ///
    /// Every member is as documented on its property; dates are kept to whole milliseconds, as Apple
    /// writes them. A member given as `nil` is absent from the JSON.
    ///
    /// Defaults and meanings:
    ///   - `externalPurchaseId`: A new sandbox identifier by default (the `SANDBOX` prefix makes it a sandbox token).
    ///   - `tokenCreationDate`: Now by default.
    ///   - `tokenType`, `tokenExpirationDate`: Absent by default (a token that is not a custom link token).
    public init(
        externalPurchaseId: String? = "SANDBOX_" + UUID().uuidString.lowercased(),
        tokenCreationDate: Date? = Date(),
        appAppleId: Int64? = nil,
        bundleId: String? = "com.example.app",
        tokenType: ExternalPurchaseTokenType? = nil,
        tokenExpirationDate: Date? = nil
    ) {
        self.externalPurchaseId = externalPurchaseId
        self.tokenCreationDate = tokenCreationDate.map(AppStoreJSON.wholeMilliseconds)
        self.appAppleId = appAppleId
        self.bundleId = bundleId
        self.tokenType = tokenType
        self.tokenExpirationDate = tokenExpirationDate.map(AppStoreJSON.wholeMilliseconds)
    }
}
