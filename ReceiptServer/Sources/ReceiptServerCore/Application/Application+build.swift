import AppStoreServerAPI
import AppStoreVerification
import Hummingbird
import HummingbirdCore
import Logging
import ServiceLifecycle

/// Builds the receipt server as a Hummingbird application: opens the database, builds the verifier
/// and the router (``buildRouter(_:)``), and adds the store's services, the notification backfill,
/// the refund answers' sender, outbound events' delivery and the metrics listener with
/// `addServices`.
///
/// ```swift
/// let app = try await buildApplication(ReceiptServerConfiguration(
///     server: configuration, access: AccessControl(bearerToken: token), logger: logger))
/// try await app.runService()
/// ```
/// The application's `ServiceGroup` starts the services in that order before the HTTP server and,
/// on graceful shutdown (SIGTERM, SIGINT, or the group's `triggerGracefulShutdown()`), stops the
/// HTTP server first (it stops accepting connections and finishes the requests in flight), then the
/// services in reverse: outbound events and refund answers, the backfill, then the store's, which
/// close the database (SQLite's write-ahead log checkpointed into the file first). A client cannot
/// hold a connection or the shutdown: ``ConnectionLimits`` closes slow headers, stalled bodies and
/// idle connections, connections over the per-address limit, and bodies still arriving at shutdown
/// after its grace period. Wrong tokens are throttled per client address
/// (``AuthenticationThrottleLimits``, with the client named by ``TrustedProxies``), and `/metrics`
/// is served as ``MetricsExposure`` says. (Bound the shutdown as a whole with the group's
/// `maximumGracefulShutdownDuration`, as the `ReceiptServer` command does.)
///
/// - Throws: ``WeakAccessTokenError`` for an access or metrics token that does not pass
///   ``AccessTokenRule``, `VerifierConfigurationError` for a bad verifier configuration, ``StorageError``
///   when the database cannot be opened, `AppStoreServerAPIError` for a reconcile base URL that
///   is neither https nor http to loopback.
public func buildApplication(_ configuration: ReceiptServerConfiguration) async throws -> some ApplicationProtocol {
    try await buildReceiptServer(configuration).application
}

/// ``buildApplication(_:)``'s application with the store and metrics it serves, for running the
/// service in-process (the tests look into its database and its metrics).
///
/// - Throws: what ``buildApplication(_:)`` throws.
func buildReceiptServer(_ configuration: ReceiptServerConfiguration) async throws -> ReceiptServerApplication<some ApplicationProtocol> {
    let server = configuration.server
    let logger = configuration.logger
    let metrics = configuration.metrics
    let access = configuration.access
    if let token = access.bearerToken, let weakness = AccessTokenRule.weakness(of: token) {
        throw WeakAccessTokenError(setting: "RECEIPT_SERVER_ACCESS_TOKEN (--access-token)", weakness: weakness)
    }
    if let token = configuration.metricsExposure.token, let weakness = AccessTokenRule.weakness(of: token) {
        throw WeakAccessTokenError(setting: "RECEIPT_SERVER_METRICS_TOKEN (--metrics-token)", weakness: weakness)
    }
    var verifierConfiguration = server.verifier
    verifierConfiguration.clock = server.clock
    let verifier = try SignedDataVerifier(configuration: verifierConfiguration)
    let apiClient = try configuration.reconcile.map { reconcile throws(AppStoreServerAPIError) in
        try makeAPIClient(reconcile, bundleId: server.verifier.bundleId ?? "", verifier: verifier)
    }
    let engineConfiguration = EntitlementEngine.Configuration(nonRenewingDurations: server.nonRenewingDurations)
    let outbox = configuration.webhooks.map { WebhookOutbox(configuration: $0, engineConfiguration: engineConfiguration, clock: server.clock) }
    let store = try await ReceiptStore.open(
        server.databasePath, configuration: server.store, busyTimeoutMilliseconds: server.busyTimeoutMilliseconds,
        verifier: verifier, engineConfiguration: engineConfiguration, webhooks: outbox, logger: logger)
    store.recordWrites(into: metrics)
    let answers = apiClient == nil ? nil : configuration.refundAnswers.map(RefundAnswers.init(configuration:))
    let context = ReceiptServerContext(
        configuration: server, verifier: verifier, store: store, engineConfiguration: engineConfiguration, metrics: metrics,
        refundAnswers: answers)
    let throttle = AuthenticationThrottle(limits: configuration.throttle)

    // The services beside the HTTP server: the notification backfill (API credentials and a
    // backfill configuration), outbound events' delivery (webhooks), the refund answers' sender
    // (API credentials and a refund answer configuration).
    let backfill = apiClient.flatMap { apiClient in
        configuration.backfill.map { backfill in
            NotificationBackfill(
                client: apiClient, store: store, check: context.check, metrics: metrics, configuration: backfill,
                clock: server.clock, logger: logger, onRun: configuration.onBackfill, refundAnswers: answers)
        }
    }
    let webhookDelivery = outbox.flatMap { outbox in
        store.webhookStorage.map { WebhookDelivery(outbox: outbox, storage: $0, metrics: metrics, logger: logger) }
    }
    let refundSender = apiClient.flatMap { apiClient in
        answers.map {
            RefundAnswerSender(client: apiClient, backend: store.backend, answers: $0, metrics: metrics, clock: server.clock, logger: logger)
        }
    }
    StartupLog.log(configuration, isReconcileConfigured: apiClient != nil, backfill: backfill, webhookDelivery: webhookDelivery,
                   isAnsweringRefunds: refundSender != nil)

    let router = buildRouter(RouterParts(
        context: context, access: access, trustedProxies: configuration.trustedProxies, metricsExposure: configuration.metricsExposure,
        throttle: throttle, apiClient: apiClient))
    let onServerRunning = configuration.onServerRunning
    var app = Application(
        router: HeadAsGet(router: router),
        server: .receiptServer(
            limits: configuration.connectionLimits,
            connections: ConnectionsPerAddress(limit: configuration.connectionLimits.maximumConnectionsPerAddress),
            trustedProxies: configuration.trustedProxies, metrics: metrics, logger: logger),
        configuration: .init(
            address: .hostname(server.host, port: server.port), serverName: "ReceiptServer",
            availableConnectionsDelegate: MaximumAvailableConnections(configuration.connectionLimits.maximumConnections, logger: logger)),
        onServerRunning: { channel in
            let port = channel.localAddress?.port ?? 0
            logger.info("ReceiptServer listening on \(channel.localAddress.map(String.init(describing:)) ?? "?")")
            await onServerRunning(port)
        },
        logger: logger)
    // Started in this order before the HTTP server, stopped in reverse after it has answered its
    // last request: the store's services (SQLite's writer and deadline timer, or the PostgreSQL
    // pool) close the database last.
    app.addServices(store.services)
    if let backfill { app.addServices(backfill) }
    // The refund answers' sender and outbound events stop before the store's services close the
    // database (RefundRequests/, Webhooks/).
    if let refundSender { app.addServices(refundSender) }
    if let webhookDelivery { app.addServices(webhookDelivery) }
    if let listener = buildMetricsListener(
        configuration.metricsExposure, metrics: metrics, throttle: throttle, limits: configuration.connectionLimits, logger: logger,
        onRunning: configuration.onMetricsRunning) {
        app.addServices(listener)
    }
    return ReceiptServerApplication(application: app, store: store, metrics: metrics)
}

/// The App Store Server API client the reconcile route, the backfill and the refund answers ask.
private func makeAPIClient(_ reconcile: ReconcileConfiguration, bundleId: String, verifier: SignedDataVerifier) throws(AppStoreServerAPIError) -> AppStoreServerAPIClient {
    if let baseURL = reconcile.baseURL {
        return AppStoreServerAPIClient(
            signingKey: reconcile.signingKey, keyId: reconcile.keyId, issuerId: reconcile.issuerId, bundleId: bundleId,
            environment: try .baseURL(baseURL), verifier: .offline(verifier), options: reconcile.options)
    }
    return AppStoreServerAPIClient(
        signingKey: reconcile.signingKey, keyId: reconcile.keyId, issuerId: reconcile.issuerId, bundleId: bundleId,
        environment: reconcile.environment, verifier: .offline(verifier), options: reconcile.options)
}
