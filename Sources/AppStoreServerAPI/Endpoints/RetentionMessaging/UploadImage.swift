import Foundation

extension AppStoreServerAPIClient {
    /// Uploads a PNG image for retention messages; Apple reviews it before you can use it:
    /// [Upload Image](https://developer.apple.com/documentation/retentionmessaging/upload-image),
    /// `PUT /inApps/v1/messaging/image/{imageIdentifier}?imageSize=...` with an `image/png` body.
    ///
    /// - Parameters:
    ///   - imageIdentifier: your UUID for the image (sent lowercase).
    ///   - image: the PNG file's bytes.
    ///   - imageSize: full size or bullet point; `nil` leaves Apple's default.
    /// - Throws: ``AppStoreServerAPIError``; `invalidRequest` for an empty image; Apple's
    ///   ``APIErrorCode/invalidImage``, ``APIErrorCode/imageAlreadyExists`` or
    ///   ``APIErrorCode/maximumNumberOfImagesReached``.
    public func uploadImage(imageIdentifier: UUID, image: Data, imageSize: ImageSize? = nil) async throws(AppStoreServerAPIError) {
        guard !image.isEmpty else {
            throw AppStoreServerAPIError(.invalidRequest, "PUT /inApps/v1/messaging/image: the image is empty; give the bytes of a PNG file")
        }
        let query = imageSize.map { [(name: "imageSize", value: $0.rawValue)] } ?? []
        _ = try await send(try APIRequest(messaging: "PUT", [.literal("image"), .uuid(name: "imageIdentifier", imageIdentifier)],
                                          query: query, body: image, contentType: "image/png"))
    }
}
