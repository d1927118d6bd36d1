#if ServerAPIClient
/// Which App Store Server API a client talks to.
public enum AppStoreServerEnvironment: Sendable, Hashable {
    /// `https://api.storekit.apple.com` (as Apple's App Store Server Library): purchases made in the App Store.
    case production
    /// `https://api.storekit-sandbox.apple.com`: sandbox and TestFlight purchases.
    case sandbox

    /// The API's base URL.
    public var baseURL: String {
        switch self {
        case .production: "https://api.storekit.apple.com"
        case .sandbox: "https://api.storekit-sandbox.apple.com"
        }
    }
}
#endif
