import Hummingbird

/// The receipt server's application (``buildReceiptServer(_:)``) with the store and metrics it
/// serves: run ``application`` (`runService()`, or in a `ServiceGroup` of your own, or
/// `test(.router)` in tests) and look into its database and metrics.
public struct ReceiptServerApplication<App: ApplicationProtocol>: Sendable {
    /// The Hummingbird application: the HTTP server and its services.
    public let application: App
    /// The database.
    public let store: ReceiptStore
    /// The Prometheus metrics served at `/metrics`.
    public let metrics: ServerMetrics
}
