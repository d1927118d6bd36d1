import Hummingbird
import HummingbirdCore
import Logging

extension HTTPServerBuilder {
    /// The HTTP/1.1 server with the per-address connection limit
    /// (``PerAddressConnectionLimitHandler``) and the connection timeouts
    /// (``ConnectionTimeoutHandler``) in every connection's pipeline.
    static func receiptServer(
        limits: ConnectionLimits, connections: ConnectionsPerAddress, trustedProxies: TrustedProxies, metrics: ServerMetrics, logger: Logger
    ) -> HTTPServerBuilder {
        .http1(configuration: HTTP1Channel.Configuration(
            additionalChannelHandlers: [
                PerAddressConnectionLimitHandler(connections: connections, trustedProxies: trustedProxies, logger: logger, metrics: metrics),
                ConnectionTimeoutHandler(limits: limits, logger: logger, metrics: metrics),
            ]))
    }
}
