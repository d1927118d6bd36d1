import AppStoreVerification

/// The statuses of a customer's auto-renewable subscriptions (Apple's `StatusResponse`), every
/// signed item verified.
public struct StatusResponse: Sendable {
    /// The environment of the data.
    public let environment: AppStoreEnvironment?
    /// The app's bundle ID.
    public let bundleId: String?
    /// The app's Apple ID.
    public let appAppleId: Int64?
    /// One item per subscription group.
    public let data: [SubscriptionGroupIdentifierItem]

    /// The body as Apple sends it.
    struct Body: Decodable, Sendable {
        let environment: AppStoreEnvironment?
        let bundleId: String?
        let appAppleId: Int64?
        let data: [SubscriptionGroupIdentifierItem.Body]?
    }

    init(body: Body, data: [SubscriptionGroupIdentifierItem]) {
        self.environment = body.environment
        self.bundleId = body.bundleId
        self.appAppleId = body.appAppleId
        self.data = data
    }
}
