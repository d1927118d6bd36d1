import AppStoreVerification

/// The review state of an uploaded retention-messaging image (Apple's `ImageState`).
public struct ImageState: OpenEnumeration {
    /// The value as the JSON carries it.
    public let rawValue: String
    /// Creates a value from its raw value; every raw value is accepted.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Awaiting review.
    public static let pending = ImageState(rawValue: "PENDING")
    /// Approved: usable in messages.
    public static let approved = ImageState(rawValue: "APPROVED")
    /// Rejected.
    public static let rejected = ImageState(rawValue: "REJECTED")
    /// Every value Apple documented when this library was released.
    public static let documentedValues: [ImageState] = [.pending, .approved, .rejected]
}
