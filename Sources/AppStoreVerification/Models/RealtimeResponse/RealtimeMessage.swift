import Foundation

/// A text retention message, with or without an image, chosen in a real-time response (Apple's
/// `Message`, renamed here so it does not collide with other libraries' `Message`, such as
/// SwiftProtobuf's).
///
/// The message, and its image if it has one, must be `APPROVED`; otherwise the App Store shows the
/// default message. The identifier is written as a lowercase UUID.
///
/// See [message](https://developer.apple.com/documentation/retentionmessaging/message).
public struct RealtimeMessage: Codable, Hashable, Sendable {
    /// The identifier of the message to show, as you uploaded it.
    public var messageIdentifier: UUID?

    /// Creates a message choice.
    ///
    /// - Parameter messageIdentifier: the identifier you uploaded the message with.
    public init(messageIdentifier: UUID?) {
        self.messageIdentifier = messageIdentifier
    }

    private enum CodingKeys: String, CodingKey { case messageIdentifier }

    /// Decodes Apple's JSON; an identifier that is not a UUID is an error.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.messageIdentifier = try RealtimeResponseBody.decodeUUID(in: container, forKey: .messageIdentifier)
    }

    /// Encodes Apple's JSON, the identifier as a lowercase UUID; an absent one is left out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(messageIdentifier?.uuidString.lowercased(), forKey: .messageIdentifier)
    }
}
