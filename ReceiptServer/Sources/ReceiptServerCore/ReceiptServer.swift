import AppStoreServerAPI
import AppStoreVerification
import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle

/// The receipt server: Hummingbird routes over a ``ReceiptStore``, as a `Service`.
///
/// ```swift
/// let server = try await ReceiptServer(configuration: configuration, access: AccessControl(bearerToken: token), logger: logger)
/// let group = ServiceGroup(configuration: .init(services: [server], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
/// try await group.run()
/// ```
/// It runs a Hummingbird `Application` whose `ServiceGroup` holds the HTTP server and the store's
/// services (SQLite's writer and its deadline timer, or the PostgreSQL pool). On graceful shutdown
/// (SIGTERM, SIGINT, or the group's `triggerGracefulShutdown()`) the server stops accepting
/// connections and finishes the requests in flight, then the store's services stop and close the
/// database (SQLite's write-ahead log checkpointed into the file first). A
/// client cannot hold a connection or the shutdown: ``ConnectionLimits`` closes slow headers,
/// stalled bodies and idle connections, connections over the per-address limit, and bodies still
/// arriving at shutdown after its grace period. Wrong tokens are throttled per client address
/// (``AuthenticationThrottleLimits``, with the client named by ``TrustedProxies``), and `/metrics`
/// is served as ``MetricsExposure`` says. (Bound the shutdown as a whole with the group's `maximumGracefulShutdownDuration`, as
/// the `ReceiptServer` command does.)
public final class ReceiptServer: Service, Sendable {
    /// The database.
    public let store: ReceiptStore
    /// The Prometheus metrics served at `/metrics`.
    public let metrics: ServerMetrics
    let context: ReceiptServerContext
    let connectionLimits: ConnectionLimits
    let access: AccessControl
    let trustedProxies: TrustedProxies
    let metricsExposure: MetricsExposure
    /// Wrong tokens per client address (bearer and console sign-in).
    let throttle: AuthenticationThrottle
    /// Connections open per client address.
    let connectionsPerAddress: ConnectionsPerAddress
    let onMetricsRunning: @Sendable (Int) async -> Void
    let apiClient: AppStoreServerAPIClient?
    let logger: Logger
    let onServerRunning: @Sendable (Int) async -> Void
    /// The notification backfill, when API credentials and a backfill configuration are given.
    let backfill: NotificationBackfill?
    /// Outbound events' delivery, when webhooks are configured (Webhooks/).
    let webhookDelivery: WebhookDelivery?
    /// The sender of answers to refund requests, when API credentials and a refund answer configuration are given.
    let refundSender: RefundAnswerSender?

    /// Opens the database and builds the verifier.
    ///
    /// - Parameters:
    ///   - configuration: where to listen, the database file, what to accept.
    ///   - connectionLimits: timeouts, the connection limit and the per-address limit.
    ///   - access: the access token guarding customers' data and reconcile, or, explicitly,
    ///     ``AccessControl/allowUnauthenticated``. It must pass ``AccessTokenRule``.
    ///   - trustedProxies: proxies whose `X-Forwarded-For` names the client (none by default).
    ///   - throttle: how wrong tokens slow a client address down.
    ///   - metricsExposure: who may read `/metrics`, and where it is served.
    ///   - reconcile: App Store Server API credentials for the reconcile route and the notification
    ///     backfill; `nil` answers reconcile 501 and backfills nothing.
    ///   - backfill: when and how far back to backfill notifications from Get Notification History
    ///     (with `reconcile`'s credentials); `nil` turns it off.
    ///   - webhooks: outbound events (Docs/Webhooks.md); `nil` sends none.
    ///   - refundAnswers: how to answer `CONSUMPTION_REQUEST` notifications (with `reconcile`'s
    ///     credentials); `nil` (the default), or no credentials, answers none.
    ///   - metrics: the metrics to record into (a new registry by default).
    ///   - logger: the server's logger.
    ///   - onServerRunning: called with the bound port once the server listens.
    ///   - onMetricsRunning: called with the metrics listener's port once it listens (only with
    ///     ``MetricsExposure/listener``).
    ///   - onBackfill: called with each backfill run's report.
    /// - Throws: ``WeakAccessTokenError`` for an access or metrics token that does not pass
    ///   ``AccessTokenRule``, `VerifierConfigurationError` for a bad verifier configuration, ``StorageError``
    ///   when the database cannot be opened, `AppStoreServerAPIError` for a reconcile base URL that
    ///   is neither https nor http to loopback.
    public init(
        configuration: ServerConfiguration,
        connectionLimits: ConnectionLimits = ConnectionLimits(),
        access: AccessControl,
        trustedProxies: TrustedProxies = TrustedProxies(),
        throttle: AuthenticationThrottleLimits = AuthenticationThrottleLimits(),
        metricsExposure: MetricsExposure = MetricsExposure(),
        reconcile: ReconcileConfiguration? = nil,
        backfill: BackfillConfiguration? = BackfillConfiguration(),
        webhooks: WebhookConfiguration? = nil,
        refundAnswers: RefundAnswerConfiguration? = nil,
        metrics: ServerMetrics = ServerMetrics(),
        logger: Logger,
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in },
        onMetricsRunning: @escaping @Sendable (Int) async -> Void = { _ in },
        onBackfill: @escaping @Sendable (BackfillReport) async -> Void = { _ in }
    ) async throws {
        if let token = access.bearerToken, let weakness = AccessTokenRule.weakness(of: token) {
            throw WeakAccessTokenError(setting: "RECEIPT_SERVER_ACCESS_TOKEN (--access-token)", weakness: weakness)
        }
        if let token = metricsExposure.token, let weakness = AccessTokenRule.weakness(of: token) {
            throw WeakAccessTokenError(setting: "RECEIPT_SERVER_METRICS_TOKEN (--metrics-token)", weakness: weakness)
        }
        var verifierConfiguration = configuration.verifier
        verifierConfiguration.clock = configuration.clock
        let verifier = try SignedDataVerifier(configuration: verifierConfiguration)
        self.apiClient = try reconcile.map { reconcile throws(AppStoreServerAPIError) in
            try ReceiptServer.makeAPIClient(reconcile, bundleId: configuration.verifier.bundleId ?? "", verifier: verifier)
        }
        let engineConfiguration = EntitlementEngine.Configuration(nonRenewingDurations: configuration.nonRenewingDurations)
        let outbox = webhooks.map { WebhookOutbox(configuration: $0, engineConfiguration: engineConfiguration, clock: configuration.clock) }
        let store = try await ReceiptStore.open(
            configuration.databasePath, configuration: configuration.store, busyTimeoutMilliseconds: configuration.busyTimeoutMilliseconds,
            verifier: verifier, engineConfiguration: engineConfiguration, webhooks: outbox, logger: logger)
        self.store = store
        self.metrics = metrics
        let answers = apiClient == nil ? nil : refundAnswers.map(RefundAnswers.init(configuration:))
        self.context = ReceiptServerContext(
            configuration: configuration, verifier: verifier, store: store, engineConfiguration: engineConfiguration, metrics: metrics,
            refundAnswers: answers)
        self.connectionLimits = connectionLimits
        self.access = access
        self.trustedProxies = trustedProxies
        self.metricsExposure = metricsExposure
        self.throttle = AuthenticationThrottle(limits: throttle)
        self.connectionsPerAddress = ConnectionsPerAddress(limit: connectionLimits.maximumConnectionsPerAddress)
        self.onMetricsRunning = onMetricsRunning
        self.logger = logger
        self.onServerRunning = onServerRunning
        if let apiClient, let backfill {
            self.backfill = NotificationBackfill(
                client: apiClient, store: store, check: context.check, metrics: metrics, configuration: backfill,
                clock: configuration.clock, logger: logger, onRun: onBackfill, refundAnswers: answers)
        } else {
            self.backfill = nil
        }
        if let outbox, let storage = store.webhookStorage {
            self.webhookDelivery = WebhookDelivery(outbox: outbox, storage: storage, metrics: metrics, logger: logger)
        } else {
            self.webhookDelivery = nil
        }
        if let apiClient, let answers {
            self.refundSender = RefundAnswerSender(client: apiClient, backend: store.backend, answers: answers, metrics: metrics,
                                                   clock: configuration.clock, logger: logger)
        } else {
            self.refundSender = nil
        }
    }

    /// The App Store Server API client the reconcile route asks.
    private static func makeAPIClient(_ reconcile: ReconcileConfiguration, bundleId: String, verifier: SignedDataVerifier) throws(AppStoreServerAPIError) -> AppStoreServerAPIClient {
        if let baseURL = reconcile.baseURL {
            return AppStoreServerAPIClient(
                signingKey: reconcile.signingKey, keyId: reconcile.keyId, issuerId: reconcile.issuerId, bundleId: bundleId,
                environment: try .baseURL(baseURL), verifier: .offline(verifier), options: reconcile.options)
        }
        return AppStoreServerAPIClient(
            signingKey: reconcile.signingKey, keyId: reconcile.keyId, issuerId: reconcile.issuerId, bundleId: bundleId,
            environment: reconcile.environment, verifier: .offline(verifier), options: reconcile.options)
    }

    /// The routes (answering `HEAD` as `GET` once wrapped in ``HeadAsGet``), behind the client
    /// address, log, metrics, JSON error and body limit middleware, with the caller established by the bearer token; the routes that reveal a
    /// customer's data behind the token (unless the server runs with `--allow-unauthenticated`),
    /// reconcile behind it always.
    func makeRouter() -> Router<ReceiptRequestContext> {
        let router = Router(context: ReceiptRequestContext.self)
        router.add(middleware: ClientAddressMiddleware(trustedProxies: trustedProxies))
        router.add(middleware: RequestLogMiddleware())
        router.add(middleware: RequestMetricsMiddleware(metrics: metrics))
        router.add(middleware: JSONErrorMiddleware())
        router.add(middleware: BodyLimitMiddleware(maximumBodyBytes: context.configuration.maximumBodyBytes))
        router.add(middleware: BearerTokenMiddleware(
            token: access.bearerToken, metricsToken: metricsExposure.listener == nil ? metricsExposure.token : nil,
            throttle: throttle, metrics: metrics))
        let transactions = TransactionsRoute(server: context)
        let notifications = NotificationsRoute(server: context)
        let entitlements = EntitlementsRoute(server: context)
        let reconcile = ReconcileRoute(server: context, metrics: metrics, client: apiClient)
        // The support console, under /console: HTML pages behind a session, only with an access token (Console/).
        ConsoleRoutes.register(on: router, server: context, accessToken: access.bearerToken, reconcile: reconcile,
                               isReconcileConfigured: apiClient != nil, throttle: throttle)
        let health = HealthRoute(server: context, metrics: metrics)
        // Open: the app's and Apple's bodies are signed, and anyone but the backend is told only
        // about what it posted; health says ready or not, nothing else.
        router.post("transactions") { request, requestContext in
            try await transactions.handle(request, context: requestContext)
        }
        router.post("notifications") { request, requestContext in
            try await notifications.handle(request, context: requestContext)
        }
        router.get("health") { request, requestContext in
            try await health.handle(request, context: requestContext)
        }
        // Behind a token (the console's activity is in it), unless it has a listener of its own.
        if metricsExposure.listener == nil {
            let metricsRoute = MetricsRoute(
                metrics: metrics, requiresToken: !(access.isUnauthenticated && metricsExposure.token == nil), metricsTokenOnly: false)
            router.get("metrics") { request, requestContext in
                try await metricsRoute.handle(request, context: requestContext)
            }
        }
        // A customer's data: the backend only, unless the server runs without a token.
        let customerData = router.group().add(middleware: RequireBackendMiddleware(rule: .customerData, access: access))
        customerData.get("customers/:appAccountToken/entitlements") { request, requestContext in
            try await entitlements.handle(request, context: requestContext)
        }
        // Links purchases to customers and spends the API quota: the backend only, always.
        let backendOnly = router.group().add(middleware: RequireBackendMiddleware(rule: .backendOnly, access: access))
        backendOnly.post("transactions/:transactionId/reconcile") { request, requestContext in
            try await reconcile.handle(request, context: requestContext)
        }
        // The facts refund requests are answered with (RefundRequests/ConsumptionRoutes.swift): the backend only.
        let consumption = ConsumptionRoutes(server: context)
        backendOnly.put("customers/:appAccountToken/consumption-consent") { request, requestContext in
            try await consumption.putConsent(request, context: requestContext)
        }
        backendOnly.put("transactions/:transactionId/consumption") { request, requestContext in
            try await consumption.putFacts(request, context: requestContext)
        }
        return router
    }

    /// `/metrics` alone, for its own listener (``MetricsExposure/listener``): open, or behind the
    /// metrics token when one is set.
    func makeMetricsRouter() -> Router<ReceiptRequestContext> {
        let router = Router(context: ReceiptRequestContext.self)
        router.add(middleware: JSONErrorMiddleware())
        router.add(middleware: BearerTokenMiddleware(token: nil, metricsToken: metricsExposure.token, throttle: throttle, metrics: metrics))
        let route = MetricsRoute(metrics: metrics, requiresToken: metricsExposure.token != nil, metricsTokenOnly: true)
        router.get("metrics") { request, requestContext in
            try await route.handle(request, context: requestContext)
        }
        return router
    }

    /// The HTTP/1.1 server with the per-address connection limit
    /// (``PerAddressConnectionLimitHandler``) and the connection timeouts
    /// (``ConnectionTimeoutHandler``) in every connection's pipeline.
    func makeServerBuilder() -> HTTPServerBuilder {
        let limits = connectionLimits
        let logger = logger
        let metrics = metrics
        let connections = connectionsPerAddress
        let trustedProxies = trustedProxies
        return .http1(configuration: HTTP1Channel.Configuration(
            additionalChannelHandlers: [
                PerAddressConnectionLimitHandler(connections: connections, trustedProxies: trustedProxies, logger: logger, metrics: metrics),
                ConnectionTimeoutHandler(limits: limits, logger: logger, metrics: metrics),
            ]))
    }

    /// Serves until graceful shutdown, then closes the database.
    public func run() async throws {
        let onServerRunning = self.onServerRunning
        let logger = self.logger
        let limits = connectionLimits
        logger.info("connection limits", metadata: [
            "header_timeout": "\(limits.headerTimeout)", "body_timeout": "\(limits.bodyTimeout)", "idle_timeout": "\(limits.idleTimeout)",
            "max_connections": "\(limits.maximumConnections)", "max_connections_per_address": "\(limits.maximumConnectionsPerAddress)",
            "trusted_proxies": "\(trustedProxies.keys.count)", "shutdown_grace_period": "\(limits.shutdownGracePeriod)",
            "max_body_bytes": "\(context.configuration.maximumBodyBytes)", "access_token": "\(access.bearerToken == nil ? "none" : "set")",
            "reconcile": "\(apiClient == nil ? "off" : "on")",
            "metrics": "\(metricsExposure.listener.map { "own listener \($0.host):\($0.port)" } ?? "on the server's port")\(metricsExposure.token == nil ? "" : ", metrics token")",
            "backfill": "\(backfill.map { "every \($0.configuration.interval)" } ?? "off")",
            "webhooks": "\(webhookDelivery.map { "\($0.outbox.configuration.endpoints.count) endpoint(s)" } ?? "off")",
            "refund_answers": "\(refundSender == nil ? "off" : "on")",
        ])
        if access.isUnauthenticated {
            logger.warning("""
                started WITHOUT an access token (--allow-unauthenticated): anyone who can reach the port and knows a customer's \
                appAccountToken can read their entitlements, and reconcile is refused to everyone. Set RECEIPT_SERVER_ACCESS_TOKEN \
                unless the port is private or your appAccountTokens are secrets.
                """)
        }
        // The store's services (SQLite's writer and deadline timer, or the PostgreSQL pool) and the
        // backfill run in the application's ServiceGroup, which starts them in this order before the
        // HTTP server and, on graceful shutdown, stops them in reverse after the HTTP server has
        // answered its last request: the backfill, then the store's, which close the database.
        var services: [any Service] = store.services + (backfill.map { [$0] } ?? [])
        // The refund answers' sender and outbound events stop before the store's services close the
        // database (RefundRequests/, Webhooks/).
        if let refundSender { services.append(refundSender) }
        if let webhookDelivery { services.append(webhookDelivery) }
        if let listener = makeMetricsListener() { services.append(listener) }
        let app = Application(
            router: HeadAsGet(router: makeRouter()),
            server: makeServerBuilder(),
            configuration: .init(
                address: .hostname(context.configuration.host, port: context.configuration.port), serverName: "ReceiptServer",
                availableConnectionsDelegate: MaximumAvailableConnections(connectionLimits.maximumConnections, logger: logger)),
            services: services,
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                logger.info("ReceiptServer listening on \(channel.localAddress.map(String.init(describing:)) ?? "?")")
                await onServerRunning(port)
            },
            logger: logger)
        try await app.run()
        logger.info("ReceiptServer stopped; database closed")
    }

    /// The application serving `/metrics` on its own listener, when ``MetricsExposure/listener`` says so.
    private func makeMetricsListener() -> (any Service)? {
        guard let listener = metricsExposure.listener else { return nil }
        let logger = logger
        let onMetricsRunning = onMetricsRunning
        let limits = connectionLimits
        // The listener's own connections are not the service's: counted in a registry of their own.
        let listenerMetrics = ServerMetrics()
        return Application(
            router: HeadAsGet(router: makeMetricsRouter()),
            server: .http1(configuration: HTTP1Channel.Configuration(
                additionalChannelHandlers: [ConnectionTimeoutHandler(limits: limits, logger: logger, metrics: listenerMetrics)])),
            configuration: .init(address: .hostname(listener.host, port: listener.port), serverName: "ReceiptServer metrics"),
            onServerRunning: { channel in
                logger.info("metrics listening on \(channel.localAddress.map(String.init(describing:)) ?? "?")")
                await onMetricsRunning(channel.localAddress?.port ?? 0)
            },
            logger: logger)
    }
}
