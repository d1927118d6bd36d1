/// The kind of an external purchase custom link token (Apple's `tokenType`, App Store Server
/// Notifications 2.17).
public struct ExternalPurchaseTokenType: OpenEnumeration {
    /// The value as it appears in the JSON payload.
    public let rawValue: String

    /// Creates a value from its raw value; every raw value is accepted, documented or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// A token for a customer the app acquired through the custom link.
    public static let acquisition = ExternalPurchaseTokenType(rawValue: "ACQUISITION")

    /// A token for services the customer buys through the custom link.
    public static let services = ExternalPurchaseTokenType(rawValue: "SERVICES")

    /// Every value Apple documents today.
    public static let documentedValues: [ExternalPurchaseTokenType] = [.acquisition, .services]
}
