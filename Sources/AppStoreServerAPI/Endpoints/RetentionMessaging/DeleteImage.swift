import Foundation

extension AppStoreServerAPIClient {
    /// Deletes an uploaded retention-messaging image:
    /// [Delete Image](https://developer.apple.com/documentation/retentionmessaging/delete-image),
    /// `DELETE /inApps/v1/messaging/image/{imageIdentifier}`.
    ///
    /// - Parameter imageIdentifier: the image's UUID.
    /// - Throws: ``AppStoreServerAPIError``; Apple's ``APIErrorCode/imageNotFound`` or
    ///   ``APIErrorCode/imageInUse`` (a message uses it).
    public func deleteImage(imageIdentifier: UUID) async throws(AppStoreServerAPIError) {
        _ = try await send(try APIRequest(messaging: "DELETE", [.literal("image"), .uuid(name: "imageIdentifier", imageIdentifier)]))
    }
}
