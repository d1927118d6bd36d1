extension AppStoreServerAPIClient {
    /// Every retention message you uploaded and its review state:
    /// [Get Message List](https://developer.apple.com/documentation/retentionmessaging/get-message-list),
    /// `GET /inApps/v1/messaging/message/list`.
    ///
    /// - Returns: the messages.
    /// - Throws: ``AppStoreServerAPIError``.
    public func getMessageList() async throws(AppStoreServerAPIError) -> GetMessageListResponse {
        let call = try APIRequest(messaging: "GET", [.literal("message"), .literal("list")])
        return try decode(GetMessageListResponse.self, from: try await send(call), of: call)
    }
}
