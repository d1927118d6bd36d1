import Foundation

/// The app metadata and the signed transaction and renewal information of a notification (Apple's
/// `data` object).
public struct NotificationData: Codable, Hashable, Sendable {
    /// The server environment the notification applies to, sandbox or production.
    public let environment: AppStoreEnvironment?

    /// The unique identifier of the app in the App Store.
    public let appAppleId: Int64?

    /// The bundle identifier of the app.
    public let bundleId: String?

    /// The version of the build that identifies an iteration of the bundle.
    public let bundleVersion: String?

    /// Transaction information signed by the App Store, as a compact JWS to verify and decode as a
    /// ``Transaction``.
    public let signedTransactionInfo: String?

    /// Subscription renewal information signed by the App Store, as a compact JWS to verify and decode
    /// as a ``RenewalInfo``.
    public let signedRenewalInfo: String?

    /// The status of the auto-renewable subscription as of the notification's `signedDate`.
    public let status: Status?

    /// The reason the customer gave when asking for a refund; present for `CONSUMPTION_REQUEST`.
    public let consumptionRequestReason: ConsumptionRequestReason?

    /// Creates a notification's data, for tests and tools: the defaults name `com.example.app` in the sandbox.
    ///
    /// Every member is as documented on its property; dates are kept to whole milliseconds, as Apple
    /// writes them. A member given as `nil` is absent from the JSON.
    public init(
        environment: AppStoreEnvironment? = .sandbox,
        appAppleId: Int64? = nil,
        bundleId: String? = "com.example.app",
        bundleVersion: String? = "1",
        signedTransactionInfo: String? = nil,
        signedRenewalInfo: String? = nil,
        status: Status? = nil,
        consumptionRequestReason: ConsumptionRequestReason? = nil
    ) {
        self.environment = environment
        self.appAppleId = appAppleId
        self.bundleId = bundleId
        self.bundleVersion = bundleVersion
        self.signedTransactionInfo = signedTransactionInfo
        self.signedRenewalInfo = signedRenewalInfo
        self.status = status
        self.consumptionRequestReason = consumptionRequestReason
    }
}
