/// The Apple platform on which the customer originally purchased an app.
public struct PurchasePlatform: OpenEnumeration {
    /// The value as it appears in the JSON payload.
    public let rawValue: String

    /// Creates a value from its raw value; every raw value is accepted, documented or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The customer purchased the app on iOS.
    public static let iOS = PurchasePlatform(rawValue: "iOS")

    /// The customer purchased the app on macOS.
    public static let macOS = PurchasePlatform(rawValue: "macOS")

    /// The customer purchased the app on tvOS.
    public static let tvOS = PurchasePlatform(rawValue: "tvOS")

    /// The customer purchased the app on visionOS.
    public static let visionOS = PurchasePlatform(rawValue: "visionOS")

    /// Every value Apple documents today.
    public static let documentedValues: [PurchasePlatform] = [
        .iOS,
        .macOS,
        .tvOS,
        .visionOS,
    ]
}
