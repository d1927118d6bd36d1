extension AppStoreServerAPIClient {
    /// Removes the URL of your Get Retention Message endpoint:
    /// [Delete Realtime URL](https://developer.apple.com/documentation/retentionmessaging/delete-realtime-url),
    /// `DELETE /inApps/v1/messaging/realtime/url`.
    ///
    /// - Throws: ``AppStoreServerAPIError``; Apple's ``APIErrorCode/realtimeUrlNotFound``.
    public func deleteRealtimeUrl() async throws(AppStoreServerAPIError) {
        _ = try await send(try APIRequest(messaging: "DELETE", [.literal("realtime"), .literal("url")]))
    }
}
