extension AppStoreServerAPIClient {
    /// Every retention-messaging image you uploaded and its review state:
    /// [Get Image List](https://developer.apple.com/documentation/retentionmessaging/get-image-list),
    /// `GET /inApps/v1/messaging/image/list`.
    ///
    /// - Returns: the images.
    /// - Throws: ``AppStoreServerAPIError``.
    public func getImageList() async throws(AppStoreServerAPIError) -> GetImageListResponse {
        let call = try APIRequest(messaging: "GET", [.literal("image"), .literal("list")])
        return try decode(GetImageListResponse.self, from: try await send(call), of: call)
    }
}
