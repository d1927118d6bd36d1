import AppStoreVerification

extension AppStoreServerAPIClient {
    /// One page of the notifications the App Store sent your server: Get Notification History,
    /// `POST /inApps/v1/notifications/history?paginationToken=...`.
    ///
    /// - Parameters:
    ///   - request: the date range and filters; give the same one for every page.
    ///   - paginationToken: the previous page's ``NotificationHistoryResponse/paginationToken``;
    ///     `nil` for the first page.
    /// - Returns: the page, each notification verified with its nested signed data.
    /// - Throws: ``AppStoreServerAPIError``.
    public func getNotificationHistory(request: NotificationHistoryRequest,
                                        paginationToken: String? = nil) async throws(AppStoreServerAPIError) -> NotificationHistoryResponse {
        let path: [APIRequest.PathSegment] = [.literal("inApps"), .literal("v1"), .literal("notifications"), .literal("history")]
        let query = paginationToken.map { [(name: "paginationToken", value: $0)] } ?? []
        let call = try APIRequest("POST", path, query: query, body: try encode(request, for: "POST /inApps/v1/notifications/history"))
        let body = try decode(NotificationHistoryResponse.Body.self, from: try await send(call), of: call)
        var items: [NotificationHistoryResponseItem] = []
        for (index, item) in (body.notificationHistory ?? []).enumerated() {
            guard let jws = item.signedPayload else {
                throw AppStoreServerAPIError(.malformedResponse, "\(call.summary): notificationHistory[\(index)] has no signedPayload")
            }
            let notification = try await verifyNotification(jws, at: "notificationHistory[\(index)].signedPayload", of: call)
            items.append(NotificationHistoryResponseItem(notification: notification, sendAttempts: item.sendAttempts ?? []))
        }
        return NotificationHistoryResponse(body: body, notificationHistory: items)
    }

    /// Every notification in the request's range, every page, as one sequence.
    ///
    /// - Parameter request: the date range and filters.
    public func notificationHistory(request: NotificationHistoryRequest) -> PaginatedResults<NotificationHistoryResponseItem> {
        PaginatedResults(maximumPages: options.maximumPages, deadline: options.paginationDeadline, elapsed: elapsed) { (token) async throws(AppStoreServerAPIError) in
            let page = try await self.getNotificationHistory(request: request, paginationToken: token)
            return try PaginatedResults.Page(items: page.notificationHistory, hasMore: page.hasMore, token: page.paginationToken, field: "paginationToken")
        }
    }
}
