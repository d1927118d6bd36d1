import Foundation

/// An image of a retention message with its alternative text (Apple's `UploadMessageImage`).
public struct UploadMessageImage: Sendable, Hashable, Encodable {
    /// The identifier you gave the image in
    /// ``AppStoreServerAPIClient/uploadImage(imageIdentifier:image:imageSize:)``.
    public var imageIdentifier: UUID
    /// The image's alternative text, at most 150 characters.
    public var altText: String

    /// An image reference.
    ///
    /// - Parameters: as the properties describe.
    public init(imageIdentifier: UUID, altText: String) {
        self.imageIdentifier = imageIdentifier
        self.altText = altText
    }

    private enum CodingKeys: String, CodingKey { case imageIdentifier, altText }

    /// Encodes Apple's JSON, the identifier as a lowercase UUID.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(imageIdentifier.uuidString.lowercased(), forKey: .imageIdentifier)
        try container.encode(altText, forKey: .altText)
    }
}
