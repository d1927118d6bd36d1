import AppStoreVerification
extension AppStoreServerAPIClient {
    /// Whether the test notification reached your server: Get Test Notification Status,
    /// `GET /inApps/v1/notifications/test/{testNotificationToken}`.
    ///
    /// - Parameter testNotificationToken: the token ``requestTestNotification()`` returned.
    /// - Returns: the notification, verified, and its delivery attempts.
    /// - Throws: ``AppStoreServerAPIError``.
    public func getTestNotificationStatus(testNotificationToken: String) async throws(AppStoreServerAPIError) -> CheckTestNotificationResponse {
        let call = try APIRequest("GET", [.literal("inApps"), .literal("v1"), .literal("notifications"), .literal("test"),
                                          .parameter(name: "testNotificationToken", value: testNotificationToken)])
        let body = try decode(CheckTestNotificationResponse.Body.self, from: try await send(call), of: call)
        var notification: VerificationResult<ResponseBodyV2DecodedPayload>?
        if let jws = body.signedPayload {
            notification = try await verifyNotification(jws, at: "signedPayload", of: call)
        }
        return CheckTestNotificationResponse(notification: notification, sendAttempts: body.sendAttempts ?? [])
    }
}
