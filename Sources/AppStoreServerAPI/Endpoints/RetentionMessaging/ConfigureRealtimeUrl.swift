extension AppStoreServerAPIClient {
    /// Sets the URL of your Get Retention Message endpoint, which the App Store calls for a
    /// message in real time:
    /// [Configure Realtime URL](https://developer.apple.com/documentation/retentionmessaging/configure-realtime-url),
    /// `PUT /inApps/v1/messaging/realtime/url`.
    ///
    /// In production Apple requires a passed performance test first
    /// (``initiatePerformanceTest(request:)``).
    ///
    /// - Parameter request: your endpoint's URL.
    /// - Throws: ``AppStoreServerAPIError``; Apple's ``APIErrorCode/badRequestRealtimeUrl`` or
    ///   ``APIErrorCode/forbiddenNoPassingTest``.
    public func configureRealtimeUrl(request: RealtimeUrlRequest) async throws(AppStoreServerAPIError) {
        let body = try encode(request, for: "PUT /inApps/v1/messaging/realtime/url")
        _ = try await send(try APIRequest(messaging: "PUT", [.literal("realtime"), .literal("url")], body: body))
    }
}
