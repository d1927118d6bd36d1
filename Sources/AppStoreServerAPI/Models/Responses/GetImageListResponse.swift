/// Every retention-messaging image you uploaded and its review state (Apple's `GetImageListResponse`).
public struct GetImageListResponse: Sendable, Hashable, Decodable {
    /// The images.
    public let imageIdentifiers: [GetImageListResponseItem]?
}
