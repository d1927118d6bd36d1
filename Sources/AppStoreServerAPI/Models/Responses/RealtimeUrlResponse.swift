/// The configured URL of your Get Retention Message endpoint (Apple's `RealtimeUrlResponse`).
public struct RealtimeUrlResponse: Sendable, Hashable, Decodable {
    /// The URL.
    public let realtimeURL: String?
}
