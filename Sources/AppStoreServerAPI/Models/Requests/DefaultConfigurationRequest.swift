import Foundation

/// The body of Configure Default Message (Apple's `DefaultConfigurationRequest`).
public struct DefaultConfigurationRequest: Sendable, Hashable, Encodable {
    /// The approved message to show by default.
    public var messageIdentifier: UUID

    /// A default-message configuration.
    ///
    /// - Parameter messageIdentifier: the identifier you gave the message in
    ///   ``AppStoreServerAPIClient/uploadMessage(messageIdentifier:request:)``.
    public init(messageIdentifier: UUID) {
        self.messageIdentifier = messageIdentifier
    }

    private enum CodingKeys: String, CodingKey { case messageIdentifier }

    /// Encodes Apple's JSON, the identifier as a lowercase UUID.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(messageIdentifier.uuidString.lowercased(), forKey: .messageIdentifier)
    }
}
