import Foundation

/// The app metadata and the signed app transaction of a notification such as `RESCIND_CONSENT`.
public struct AppData: Codable, Hashable, Sendable {
    /// The unique identifier of the app the notification applies to.
    public let appAppleId: Int64?

    /// The bundle identifier of the app.
    public let bundleId: String?

    /// The server environment the notification applies to, sandbox or production.
    public let environment: AppStoreEnvironment?

    /// App transaction information signed by the App Store, as a compact JWS to verify and decode as an
    /// ``AppTransaction``.
    public let signedAppTransactionInfo: String?

    /// Creates a notification's app data, for tests and tools: the defaults name `com.example.app` in the sandbox.
    ///
    /// Every member is as documented on its property; dates are kept to whole milliseconds, as Apple
    /// writes them. A member given as `nil` is absent from the JSON.
    public init(
        appAppleId: Int64? = nil,
        bundleId: String? = "com.example.app",
        environment: AppStoreEnvironment? = .sandbox,
        signedAppTransactionInfo: String? = nil
    ) {
        self.appAppleId = appAppleId
        self.bundleId = bundleId
        self.environment = environment
        self.signedAppTransactionInfo = signedAppTransactionInfo
    }
}
