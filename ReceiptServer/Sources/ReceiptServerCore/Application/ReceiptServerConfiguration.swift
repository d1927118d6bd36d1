import Foundation
import Logging

/// Everything ``buildApplication(_:)`` builds the service from: the server's configuration, who may
/// read what, the connection limits, the optional parts (reconcile, backfill, webhooks, refund
/// answers), the logger, and the callbacks that tell a caller when a listener is up.
///
/// ```swift
/// let app = try await buildApplication(ReceiptServerConfiguration(
///     server: configuration, access: AccessControl(bearerToken: token), logger: logger))
/// try await app.runService()
/// ```
public struct ReceiptServerConfiguration: Sendable {
    /// Where to listen, the database, what to accept.
    public var server: ServerConfiguration
    /// Timeouts, the connection limit and the per-address limit.
    public var connectionLimits: ConnectionLimits
    /// The access token guarding customers' data and reconcile, or, explicitly,
    /// ``AccessControl/allowUnauthenticated``. It must pass ``AccessTokenRule``.
    public var access: AccessControl
    /// Proxies whose `X-Forwarded-For` names the client (none by default).
    public var trustedProxies: TrustedProxies
    /// How wrong tokens slow a client address down.
    public var throttle: AuthenticationThrottleLimits
    /// Who may read `/metrics`, and where it is served.
    public var metricsExposure: MetricsExposure
    /// App Store Server API credentials for the reconcile route and the notification backfill;
    /// `nil` answers reconcile 501 and backfills nothing.
    public var reconcile: ReconcileConfiguration?
    /// When and how far back to backfill notifications from Get Notification History (with
    /// ``reconcile``'s credentials); `nil` turns it off.
    public var backfill: BackfillConfiguration?
    /// Outbound events (Docs/Webhooks.md); `nil` sends none.
    public var webhooks: WebhookConfiguration?
    /// How to answer `CONSUMPTION_REQUEST` notifications (with ``reconcile``'s credentials); `nil`
    /// (the default), or no credentials, answers none.
    public var refundAnswers: RefundAnswerConfiguration?
    /// The metrics to record into (a new registry by default).
    public var metrics: ServerMetrics
    /// The server's logger.
    public var logger: Logger
    /// Called with the bound port once the server listens.
    public var onServerRunning: @Sendable (Int) async -> Void
    /// Called with the metrics listener's port once it listens (only with ``MetricsExposure/listener``).
    public var onMetricsRunning: @Sendable (Int) async -> Void
    /// Called with each backfill run's report.
    public var onBackfill: @Sendable (BackfillReport) async -> Void

    /// Creates a configuration; every part but the server's configuration, the access rule and the
    /// logger has a default (see each property).
    public init(
        server: ServerConfiguration,
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
    ) {
        self.server = server
        self.connectionLimits = connectionLimits
        self.access = access
        self.trustedProxies = trustedProxies
        self.throttle = throttle
        self.metricsExposure = metricsExposure
        self.reconcile = reconcile
        self.backfill = backfill
        self.webhooks = webhooks
        self.refundAnswers = refundAnswers
        self.metrics = metrics
        self.logger = logger
        self.onServerRunning = onServerRunning
        self.onMetricsRunning = onMetricsRunning
        self.onBackfill = onBackfill
    }
}
