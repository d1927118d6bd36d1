import Foundation

/// The default message of a product and locale (Apple's `DefaultConfigurationResponse`).
public struct DefaultConfigurationResponse: Sendable, Hashable, Decodable {
    /// The message configured as the default.
    public let messageIdentifier: UUID?
}
