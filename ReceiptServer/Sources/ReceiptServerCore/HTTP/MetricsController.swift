import Hummingbird
import NIOCore

/// `GET /metrics`: the server's ``ServerMetrics`` in Prometheus's text exposition format. Its
/// request counts by route include the console's sign-ins and page views, so it answers only a
/// caller ``MetricsExposure`` allows: on the server's port, the metrics token or the access token
/// (open on a server without an access token and without a metrics token); on a listener of its
/// own, anyone unless a metrics token is set.
struct MetricsController: Sendable {
    let metrics: ServerMetrics
    /// Whether the caller must have presented a token (the access token counts unless
    /// `metricsTokenOnly`).
    let requiresToken: Bool
    /// Whether only the metrics token opens the route (its own listener with a metrics token).
    let metricsTokenOnly: Bool

    /// Adds `GET /metrics`.
    func addRoutes(to router: some RouterMethods<ReceiptRequestContext>) {
        router.get("metrics", use: handle)
    }

    @Sendable func handle(_ request: Request, context: ReceiptRequestContext) async throws -> Response {
        if requiresToken {
            let allowed = context.presentedMetricsToken || (!metricsTokenOnly && context.caller == .backend)
            guard allowed else {
                throw BearerTokenMiddleware.unauthorized(
                    "/metrics counts the server's requests, the console's included: send Authorization: Bearer <token> with the metrics token (RECEIPT_SERVER_METRICS_TOKEN) or the access token, or serve it on a private listener (--metrics-port).")
            }
        }
        var buffer: [UInt8] = []
        metrics.registry.emit(into: &buffer)
        return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                        body: .init(byteBuffer: ByteBuffer(bytes: buffer)))
    }
}
