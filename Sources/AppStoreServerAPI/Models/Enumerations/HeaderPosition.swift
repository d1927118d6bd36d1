import AppStoreVerification

/// Where a retention message's header appears (Apple's `HeaderPosition`).
public struct HeaderPosition: OpenEnumeration {
    /// The value as the JSON carries it.
    public let rawValue: String
    /// Creates a value from its raw value; every raw value is accepted.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Above the body text (Apple's default).
    public static let aboveBody = HeaderPosition(rawValue: "ABOVE_BODY")
    /// Above the image (the message must have one).
    public static let aboveImage = HeaderPosition(rawValue: "ABOVE_IMAGE")
    /// Every value Apple documented when this library was released.
    public static let documentedValues: [HeaderPosition] = [.aboveBody, .aboveImage]
}
