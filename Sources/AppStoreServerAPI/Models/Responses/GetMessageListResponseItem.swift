import Foundation

/// One uploaded message and its review state (Apple's `GetMessageListResponseItem`).
public struct GetMessageListResponseItem: Sendable, Hashable, Decodable {
    /// The identifier you gave the message.
    public let messageIdentifier: UUID?
    /// Its review state.
    public let messageState: MessageState?
}
