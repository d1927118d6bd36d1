import Foundation

/// The metadata of every Advanced Commerce request (Apple's `RequestInfo`).
///
/// Identifiers are written as lowercase UUIDs.
///
/// See [RequestInfo](https://developer.apple.com/documentation/advancedcommerceapi/requestinfo).
public struct AdvancedCommerceRequestInfo: Codable, Hashable, Sendable {
    /// Your unique identifier of the request. Give the same value to retry a request that timed
    /// out; a new one otherwise.
    public var requestReferenceId: UUID

    /// The app account token to associate with the transaction, if any.
    public var appAccountToken: UUID?

    /// The `advancedCommerceConsistencyToken` of the subscription's latest renewal info, when the
    /// request changes a subscription; never one you make up.
    public var consistencyToken: String?

    /// Creates request metadata.
    ///
    /// - Parameters:
    ///   - requestReferenceId: Your unique identifier of the request; keep it to retry the request.
    ///   - appAccountToken: The app account token to associate with the transaction.
    ///   - consistencyToken: The subscription's `advancedCommerceConsistencyToken`, when there is one.
    public init(requestReferenceId: UUID, appAccountToken: UUID? = nil, consistencyToken: String? = nil) {
        self.requestReferenceId = requestReferenceId
        self.appAccountToken = appAccountToken
        self.consistencyToken = consistencyToken
    }

    private enum CodingKeys: String, CodingKey {
        case requestReferenceId, appAccountToken, consistencyToken
    }

    /// Decodes Apple's JSON; an identifier that is not a UUID is an error.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.requestReferenceId = try Self.uuid(container.decode(String.self, forKey: .requestReferenceId), .requestReferenceId, in: container)
        if let token = try container.decodeIfPresent(String.self, forKey: .appAccountToken) {
            self.appAccountToken = try Self.uuid(token, .appAccountToken, in: container)
        } else {
            self.appAccountToken = nil
        }
        self.consistencyToken = try container.decodeIfPresent(String.self, forKey: .consistencyToken)
    }

    /// Encodes Apple's JSON, identifiers as lowercase UUIDs; absent members are left out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(requestReferenceId.uuidString.lowercased(), forKey: .requestReferenceId)
        try container.encodeIfPresent(appAccountToken?.uuidString.lowercased(), forKey: .appAccountToken)
        try container.encodeIfPresent(consistencyToken, forKey: .consistencyToken)
    }

    private static func uuid(_ text: String, _ key: CodingKeys, in container: KeyedDecodingContainer<CodingKeys>) throws -> UUID {
        guard let uuid = UUID(uuidString: text) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "\(key.rawValue) is not a UUID")
        }
        return uuid
    }
}
