import AppStoreVerification

/// One page of Get Notification History (Apple's `NotificationHistoryResponse`).
public struct NotificationHistoryResponse: Sendable {
    /// The token of the next page; pass it as `paginationToken` with the same request.
    public let paginationToken: String?
    /// Whether more pages follow.
    public let hasMore: Bool?
    /// Up to 20 notifications, each verified.
    public let notificationHistory: [NotificationHistoryResponseItem]

    /// The body as Apple sends it.
    struct Body: Decodable, Sendable {
        let paginationToken: String?
        let hasMore: Bool?
        let notificationHistory: [NotificationHistoryResponseItem.Body]?
    }

    init(body: Body, notificationHistory: [NotificationHistoryResponseItem]) {
        self.paginationToken = body.paginationToken
        self.hasMore = body.hasMore
        self.notificationHistory = notificationHistory
    }
}
