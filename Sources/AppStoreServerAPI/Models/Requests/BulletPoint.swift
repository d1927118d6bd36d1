import Foundation

/// One bullet point of a retention message: its text and its bullet image (Apple's `BulletPoint`).
public struct BulletPoint: Sendable, Hashable, Encodable {
    /// The bullet point's text, at most 66 characters.
    public var text: String
    /// The identifier of the bullet image (uploaded with ``ImageSize/bulletPoint``).
    public var imageIdentifier: UUID
    /// The image's alternative text, at most 150 characters.
    public var altText: String

    /// A bullet point.
    ///
    /// - Parameters: as the properties describe.
    public init(text: String, imageIdentifier: UUID, altText: String) {
        self.text = text
        self.imageIdentifier = imageIdentifier
        self.altText = altText
    }

    private enum CodingKeys: String, CodingKey { case text, imageIdentifier, altText }

    /// Encodes Apple's JSON, the identifier as a lowercase UUID.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(text, forKey: .text)
        try container.encode(imageIdentifier.uuidString.lowercased(), forKey: .imageIdentifier)
        try container.encode(altText, forKey: .altText)
    }
}
