import Hummingbird
import HummingbirdCore
import Logging
import ServiceLifecycle

/// The application serving `/metrics` on its own listener, when ``MetricsExposure/listener`` says
/// so (`nil` otherwise): the service's `metrics`, open, or behind the metrics token when one is set.
/// Added to the service's application with `addServices`.
func buildMetricsListener(
    _ exposure: MetricsExposure, metrics: ServerMetrics, throttle: AuthenticationThrottle, limits: ConnectionLimits, logger: Logger,
    onRunning: @escaping @Sendable (Int) async -> Void
) -> (any Service)? {
    guard let listener = exposure.listener else { return nil }
    // The listener's own connections are not the service's: counted in a registry of their own.
    let listenerMetrics = ServerMetrics()
    let router = Router(context: ReceiptRequestContext.self)
    router.add(middleware: JSONErrorMiddleware())
    router.add(middleware: BearerTokenMiddleware(token: nil, metricsToken: exposure.token, throttle: throttle, metrics: metrics))
    MetricsController(metrics: metrics, requiresToken: exposure.token != nil, metricsTokenOnly: true).addRoutes(to: router)
    return Application(
        router: HeadAsGet(router: router),
        server: .http1(configuration: HTTP1Channel.Configuration(
            additionalChannelHandlers: [ConnectionTimeoutHandler(limits: limits, logger: logger, metrics: listenerMetrics)])),
        configuration: .init(address: .hostname(listener.host, port: listener.port), serverName: "ReceiptServer metrics"),
        onServerRunning: { channel in
            logger.info("metrics listening on \(channel.localAddress.map(String.init(describing:)) ?? "?")")
            await onRunning(channel.localAddress?.port ?? 0)
        },
        logger: logger)
}
