import Foundation

extension AppStoreServerAPIClient {
    /// Uploads a retention message; Apple reviews it before you can use it:
    /// [Upload Message](https://developer.apple.com/documentation/retentionmessaging/upload-message),
    /// `PUT /inApps/v1/messaging/message/{messageIdentifier}`.
    ///
    /// - Parameters:
    ///   - messageIdentifier: your UUID for the message (sent lowercase).
    ///   - request: the header, body, and optional image and bullet points.
    /// - Throws: ``AppStoreServerAPIError``; Apple's ``APIErrorCode/messageAlreadyExists``,
    ///   ``APIErrorCode/headerTooLong``, ``APIErrorCode/bodyTooLong`` and the like.
    public func uploadMessage(messageIdentifier: UUID, request: UploadMessageRequestBody) async throws(AppStoreServerAPIError) {
        let body = try encode(request, for: "PUT /inApps/v1/messaging/message")
        _ = try await send(try APIRequest(messaging: "PUT", [.literal("message"), .uuid(name: "messageIdentifier", messageIdentifier)], body: body))
    }
}
