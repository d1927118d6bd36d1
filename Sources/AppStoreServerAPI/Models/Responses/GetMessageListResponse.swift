/// Every retention message you uploaded and its review state (Apple's `GetMessageListResponse`).
public struct GetMessageListResponse: Sendable, Hashable, Decodable {
    /// The messages.
    public let messageIdentifiers: [GetMessageListResponseItem]?
}
