import Foundation

extension APIRequest {
    /// A Retention Messaging API request: `/inApps/v1/messaging/` followed by `segments`.
    init(messaging method: String, _ segments: [PathSegment], query: [(name: String, value: String)] = [], body: Data? = nil,
         contentType: String = "application/json") throws(AppStoreServerAPIError) {
        try self.init(method, [.literal("inApps"), .literal("v1"), .literal("messaging")] + segments, query: query, body: body, contentType: contentType)
    }
}

extension APIRequest.PathSegment {
    /// A caller-given UUID, as a lowercase path segment.
    static func uuid(name: String, _ value: UUID) -> Self {
        .parameter(name: name, value: value.uuidString.lowercased())
    }
}
