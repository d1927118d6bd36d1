/// Where a client sends its requests: Apple's production or sandbox API, or another base URL (a
/// fake App Store in tests).
///
/// ```swift
/// let client = AppStoreServerAPIClient(..., environment: .production, verifier: .offline(verifier))
/// let test = AppStoreServerAPIClient(..., environment: try .baseURL(fake.baseURL), verifier: .offline(verifier))
/// ```
public struct AppStoreServerEnvironment: Sendable, Hashable {
    /// The API's base URL, without a trailing slash.
    public let baseURL: String
    /// Whether Apple's sandbox limits apply (10 % of production's): the sandbox, or, for another
    /// base URL, `nil` (the client then follows its verifier's environment).
    let isSandbox: Bool?

    private init(baseURL: String, isSandbox: Bool?) {
        self.baseURL = baseURL
        self.isSandbox = isSandbox
    }

    /// `https://api.storekit.apple.com` (as Apple's App Store Server Library): purchases made in
    /// the App Store.
    public static let production = AppStoreServerEnvironment(baseURL: "https://api.storekit.apple.com", isSandbox: false)

    /// `https://api.storekit-sandbox.apple.com`: sandbox and TestFlight purchases.
    public static let sandbox = AppStoreServerEnvironment(baseURL: "https://api.storekit-sandbox.apple.com", isSandbox: true)

    /// Another base URL: `https://` anywhere, `http://` only to 127.0.0.1, ::1 or localhost (a fake
    /// App Store in tests).
    ///
    /// - Parameter text: scheme, host, port (and optionally a path prefix), such as
    ///   `http://127.0.0.1:8080`.
    /// - Throws: ``AppStoreServerAPIError`` (`invalidRequest`) for a URL that is not https and not
    ///   http to a loopback host, or that has a query, a fragment or credentials.
    public static func baseURL(_ text: String) throws(AppStoreServerAPIError) -> AppStoreServerEnvironment {
        let url = try BaseURL(validating: text)
        switch url.text {
        case production.baseURL: return .production
        case sandbox.baseURL: return .sandbox
        default: return AppStoreServerEnvironment(baseURL: url.text, isSandbox: nil)
        }
    }
}
