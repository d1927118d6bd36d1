import Foundation

/// The result of a request to extend the renewal date of all eligible subscribers (Apple's `summary`
/// object).
public struct NotificationSummary: Codable, Hashable, Sendable {
    /// The server environment the notification applies to, sandbox or production.
    public let environment: AppStoreEnvironment?

    /// The unique identifier of the app in the App Store.
    public let appAppleId: Int64?

    /// The bundle identifier of the app.
    public let bundleId: String?

    /// The product identifier of the subscriptions whose renewal date was extended.
    public let productId: String?

    /// The identifier you gave the renewal-date extension request, to track it.
    public let requestIdentifier: String?

    /// The storefront country codes you gave to limit the extension to those storefronts.
    public let storefrontCountryCodes: [String]?

    /// The number of subscriptions whose renewal date was extended.
    public let succeededCount: Int64?

    /// The number of subscriptions whose renewal date could not be extended.
    public let failedCount: Int64?
}
