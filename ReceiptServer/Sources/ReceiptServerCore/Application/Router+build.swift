import AppStoreServerAPI
import Hummingbird

/// What the router is built from (``buildRouter(_:)``).
struct RouterParts: Sendable {
    /// What every route shares.
    let context: ReceiptServerContext
    /// The access token, or none (`--allow-unauthenticated`).
    let access: AccessControl
    /// Proxies whose `X-Forwarded-For` names the client.
    let trustedProxies: TrustedProxies
    /// Who may read `/metrics`, and where.
    let metricsExposure: MetricsExposure
    /// Wrong tokens per client address (bearer and console sign-in).
    let throttle: AuthenticationThrottle
    /// `nil` when the server has no App Store Server API credentials.
    let apiClient: AppStoreServerAPIClient?
}

/// The routes (answering `HEAD` as `GET` once wrapped in ``HeadAsGet``), behind the client
/// address, log, metrics, JSON error and body limit middleware, with the caller established by the
/// bearer token; the routes that reveal a customer's data behind the token (unless the server runs
/// with `--allow-unauthenticated`), reconcile and the consumption routes behind it always. One
/// controller per resource (HTTP/).
func buildRouter(_ parts: RouterParts) -> Router<ReceiptRequestContext> {
    let context = parts.context
    let metrics = context.metrics
    let access = parts.access
    let metricsExposure = parts.metricsExposure
    let router = Router(context: ReceiptRequestContext.self)
    router.add(middleware: ClientAddressMiddleware(trustedProxies: parts.trustedProxies))
    router.add(middleware: RequestLogMiddleware())
    router.add(middleware: RequestMetricsMiddleware(metrics: metrics))
    router.add(middleware: JSONErrorMiddleware())
    router.add(middleware: BodyLimitMiddleware(maximumBodyBytes: context.configuration.maximumBodyBytes))
    router.add(middleware: BearerTokenMiddleware(
        token: access.bearerToken, metricsToken: metricsExposure.listener == nil ? metricsExposure.token : nil,
        throttle: parts.throttle, metrics: metrics))
    let reconcile = ReconcileController(server: context, metrics: metrics, client: parts.apiClient)
    // The support console, under /console: HTML pages behind a session, only with an access token (Console/).
    ConsoleController(server: context, accessToken: access.bearerToken, reconcile: reconcile,
                      isReconcileConfigured: parts.apiClient != nil, throttle: parts.throttle)
        .addRoutes(to: router)
    // Open: the app's and Apple's bodies are signed, and anyone but the backend is told only
    // about what it posted; health says ready or not, nothing else.
    TransactionsController(server: context).addRoutes(to: router)
    NotificationsController(server: context).addRoutes(to: router)
    HealthController(server: context, metrics: metrics).addRoutes(to: router)
    // Behind a token (the console's activity is in it), unless it has a listener of its own.
    if metricsExposure.listener == nil {
        MetricsController(
            metrics: metrics, requiresToken: !(access.isUnauthenticated && metricsExposure.token == nil), metricsTokenOnly: false)
            .addRoutes(to: router)
    }
    // A customer's data: the backend only, unless the server runs without a token.
    EntitlementsController(server: context)
        .addRoutes(to: router.group().add(middleware: RequireBackendMiddleware(rule: .customerData, access: access)))
    // Links purchases to customers and spends the API quota: the backend only, always; so do the
    // facts refund requests are answered with (RefundRequests/).
    let backendOnly = router.group().add(middleware: RequireBackendMiddleware(rule: .backendOnly, access: access))
    reconcile.addRoutes(to: backendOnly)
    ConsumptionController(server: context).addRoutes(to: backendOnly)
    return router
}
