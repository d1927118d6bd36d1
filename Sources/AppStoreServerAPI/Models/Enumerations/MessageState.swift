import AppStoreVerification

/// The review state of an uploaded retention message (Apple's `MessageState`).
public struct MessageState: OpenEnumeration {
    /// The value as the JSON carries it.
    public let rawValue: String
    /// Creates a value from its raw value; every raw value is accepted.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Awaiting review.
    public static let pending = MessageState(rawValue: "PENDING")
    /// Approved: usable as a default or real-time message.
    public static let approved = MessageState(rawValue: "APPROVED")
    /// Rejected.
    public static let rejected = MessageState(rawValue: "REJECTED")
    /// Every value Apple documented when this library was released.
    public static let documentedValues: [MessageState] = [.pending, .approved, .rejected]
}
