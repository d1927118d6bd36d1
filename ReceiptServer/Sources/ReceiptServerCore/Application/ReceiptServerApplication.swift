import Hummingbird

/// The receipt server's application (``buildReceiptServer(_:)``) with the store and metrics it
/// serves: run ``application`` (`runService()`, or in a `ServiceGroup` of your own, or
/// `test(.router)` in tests) and look into its database and metrics.
struct ReceiptServerApplication<App: ApplicationProtocol>: Sendable {
    /// The Hummingbird application: the HTTP server and its services.
    let application: App
    /// The database.
    let store: ReceiptStore
    /// The Prometheus metrics served at `/metrics`.
    let metrics: ServerMetrics
}
