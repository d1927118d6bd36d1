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

    /// Creates a notification's summary (of a subscription-renewal-date extension request), for tests and tools: the defaults name `com.example.app` in the sandbox.
    ///
    /// Every member is as documented on its property; dates are kept to whole milliseconds, as Apple
    /// writes them. A member given as `nil` is absent from the JSON.
    public init(
        environment: AppStoreEnvironment? = .sandbox,
        appAppleId: Int64? = nil,
        bundleId: String? = "com.example.app",
        productId: String? = nil,
        requestIdentifier: String? = nil,
        storefrontCountryCodes: [String]? = nil,
        succeededCount: Int64? = nil,
        failedCount: Int64? = nil
    ) {
        self.environment = environment
        self.appAppleId = appAppleId
        self.bundleId = bundleId
        self.productId = productId
        self.requestIdentifier = requestIdentifier
        self.storefrontCountryCodes = storefrontCountryCodes
        self.succeededCount = succeededCount
        self.failedCount = failedCount
    }
}
