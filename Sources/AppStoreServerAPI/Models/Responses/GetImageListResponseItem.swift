import Foundation

/// One uploaded image and its review state (Apple's `GetImageListResponseItem`).
public struct GetImageListResponseItem: Sendable, Hashable, Decodable {
    /// The identifier you gave the image.
    public let imageIdentifier: UUID?
    /// Its review state.
    public let imageState: ImageState?
    /// Its size.
    public let imageSize: ImageSize?
}
