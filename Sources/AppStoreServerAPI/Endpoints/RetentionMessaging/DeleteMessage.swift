import Foundation

extension AppStoreServerAPIClient {
    /// Deletes an uploaded retention message:
    /// [Delete Message](https://developer.apple.com/documentation/retentionmessaging/delete-message),
    /// `DELETE /inApps/v1/messaging/message/{messageIdentifier}`.
    ///
    /// - Parameter messageIdentifier: the message's UUID.
    /// - Throws: ``AppStoreServerAPIError``; Apple's ``APIErrorCode/messageNotFound``.
    public func deleteMessage(messageIdentifier: UUID) async throws(AppStoreServerAPIError) {
        _ = try await send(try APIRequest(messaging: "DELETE", [.literal("message"), .uuid(name: "messageIdentifier", messageIdentifier)]))
    }
}
