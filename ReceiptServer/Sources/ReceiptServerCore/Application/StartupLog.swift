import Logging

/// The lines the server logs once it is built: its limits and what is turned on (one `info` line),
/// and a warning when it runs without an access token.
enum StartupLog {
    /// Logs `configuration`'s limits and parts to its logger.
    static func log(_ configuration: ReceiptServerConfiguration, isReconcileConfigured: Bool, backfill: NotificationBackfill?,
                    webhookDelivery: WebhookDelivery?, isAnsweringRefunds: Bool) {
        let logger = configuration.logger
        let limits = configuration.connectionLimits
        let access = configuration.access
        let metricsExposure = configuration.metricsExposure
        logger.info("connection limits", metadata: [
            "header_timeout": "\(limits.headerTimeout)", "body_timeout": "\(limits.bodyTimeout)", "idle_timeout": "\(limits.idleTimeout)",
            "max_connections": "\(limits.maximumConnections)", "max_connections_per_address": "\(limits.maximumConnectionsPerAddress)",
            "trusted_proxies": "\(configuration.trustedProxies.keys.count)", "shutdown_grace_period": "\(limits.shutdownGracePeriod)",
            "max_body_bytes": "\(configuration.server.maximumBodyBytes)", "access_token": "\(access.bearerToken == nil ? "none" : "set")",
            "reconcile": "\(isReconcileConfigured ? "on" : "off")",
            "metrics": "\(metricsExposure.listener.map { "own listener \($0.host):\($0.port)" } ?? "on the server's port")\(metricsExposure.token == nil ? "" : ", metrics token")",
            "backfill": "\(backfill.map { "every \($0.configuration.interval)" } ?? "off")",
            "webhooks": "\(webhookDelivery.map { "\($0.outbox.configuration.endpoints.count) endpoint(s)" } ?? "off")",
            "refund_answers": "\(isAnsweringRefunds ? "on" : "off")",
        ])
        if access.isUnauthenticated {
            logger.warning("""
                started WITHOUT an access token (--allow-unauthenticated): anyone who can reach the port and knows a customer's \
                appAccountToken can read their entitlements, and reconcile is refused to everyone. Set RECEIPT_SERVER_ACCESS_TOKEN \
                unless the port is private or your appAccountTokens are secrets.
                """)
        }
    }
}
