import AppStoreVerification

/// The size of a retention-messaging image (Apple's `ImageSize`).
public struct ImageSize: OpenEnumeration {
    /// The value as the JSON carries it.
    public let rawValue: String
    /// Creates a value from its raw value; every raw value is accepted.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// A full-size image.
    public static let fullSize = ImageSize(rawValue: "FULL_SIZE")
    /// A bullet-point image.
    public static let bulletPoint = ImageSize(rawValue: "BULLET_POINT")
    /// Every value Apple documented when this library was released.
    public static let documentedValues: [ImageSize] = [.fullSize, .bulletPoint]
}
