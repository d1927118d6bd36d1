/// The body of Configure Realtime URL (Apple's `RealtimeUrlRequest`).
public struct RealtimeUrlRequest: Sendable, Hashable, Encodable {
    /// The URL of your Get Retention Message endpoint, at most 256 characters.
    public var realtimeURL: String

    /// A realtime URL configuration.
    ///
    /// - Parameter realtimeURL: the URL of your Get Retention Message endpoint.
    public init(realtimeURL: String) {
        self.realtimeURL = realtimeURL
    }
}
