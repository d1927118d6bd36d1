/// The server environment that signed data or a notification comes from: sandbox or production, or a local
/// testing environment.
public struct AppStoreEnvironment: OpenEnumeration {
    /// The value as it appears in the JSON payload.
    public let rawValue: String

    /// Creates a value from its raw value; every raw value is accepted, documented or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The sandbox environment, where purchases made with sandbox Apple Accounts cost nothing.
    public static let sandbox = AppStoreEnvironment(rawValue: "Sandbox")

    /// The production environment, where customers make real purchases.
    public static let production = AppStoreEnvironment(rawValue: "Production")

    /// StoreKit Testing in Xcode: the data was signed locally by Xcode, not by the App Store.
    public static let xcode = AppStoreEnvironment(rawValue: "Xcode")

    /// A local testing environment, which Apple's server libraries and sample payloads use in their unit
    /// tests.
    public static let localTesting = AppStoreEnvironment(rawValue: "LocalTesting")

    /// Every value Apple documents today.
    public static let documentedValues: [AppStoreEnvironment] = [
        .sandbox,
        .production,
        .xcode,
        .localTesting,
    ]
}
