extension AppStoreServerAPIClient {
    /// Asks the App Store to send your server a `TEST` notification: Request a Test Notification,
    /// `POST /inApps/v1/notifications/test`.
    ///
    /// - Returns: the `testNotificationToken` to pass to ``getTestNotificationStatus(testNotificationToken:)``.
    /// - Throws: ``AppStoreServerAPIError``; `malformedResponse` when the answer carries no token.
    public func requestTestNotification() async throws(AppStoreServerAPIError) -> String {
        let call = try APIRequest("POST", [.literal("inApps"), .literal("v1"), .literal("notifications"), .literal("test")])
        let body = try decode(Body.self, from: try await send(call), of: call)
        guard let token = body.testNotificationToken, !token.isEmpty else {
            throw AppStoreServerAPIError(.malformedResponse, "\(call.summary): the response has no testNotificationToken")
        }
        return token
    }

    /// Apple's `SendTestNotificationResponse`.
    private struct Body: Decodable, Sendable {
        let testNotificationToken: String?
    }
}
