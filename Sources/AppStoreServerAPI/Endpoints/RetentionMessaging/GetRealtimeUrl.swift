extension AppStoreServerAPIClient {
    /// The configured URL of your Get Retention Message endpoint:
    /// [Get Realtime URL](https://developer.apple.com/documentation/retentionmessaging/get-realtime-url),
    /// `GET /inApps/v1/messaging/realtime/url`.
    ///
    /// - Returns: the URL.
    /// - Throws: ``AppStoreServerAPIError``; Apple's ``APIErrorCode/realtimeUrlNotFound`` when none
    ///   is configured.
    public func getRealtimeUrl() async throws(AppStoreServerAPIError) -> RealtimeUrlResponse {
        let call = try APIRequest(messaging: "GET", [.literal("realtime"), .literal("url")])
        return try decode(RealtimeUrlResponse.self, from: try await send(call), of: call)
    }
}
