import Logging
import NIOCore

/// Closes a new connection, unanswered, when its client address already has
/// ``ConnectionLimits/maximumConnectionsPerAddress`` open (``ConnectionsPerAddress``), so one
/// address holding stalled connections cannot fill ``ConnectionLimits/maximumConnections`` for
/// everyone. Connections from a trusted proxy are not counted (the proxy caps its own clients).
final class PerAddressConnectionLimitHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    private let connections: ConnectionsPerAddress
    private let trustedProxies: TrustedProxies
    private let logger: Logger
    private let metrics: ServerMetrics
    /// The key this connection is counted under, once counted.
    private var counted: String?
    private var decided = false

    /// - Parameters:
    ///   - connections: the shared counts.
    ///   - trustedProxies: addresses not counted.
    ///   - logger: where a refused connection is logged (debug).
    ///   - metrics: where refused connections are counted.
    init(connections: ConnectionsPerAddress, trustedProxies: TrustedProxies, logger: Logger, metrics: ServerMetrics) {
        self.connections = connections
        self.trustedProxies = trustedProxies
        self.logger = logger
        self.metrics = metrics
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { decide(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        decide(context)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // Nothing from a refused connection goes further (it is closing).
        guard decided, counted != nil || isExempt(context) else { return }
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        release()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        release()
    }

    private func isExempt(_ context: ChannelHandlerContext) -> Bool {
        trustedProxies.contains(context.channel.remoteAddress)
    }

    private func decide(_ context: ChannelHandlerContext) {
        guard !decided else { return }
        decided = true
        let peer = context.channel.remoteAddress
        if trustedProxies.contains(peer) { return }
        let key = peer.flatMap { ClientAddress.key(of: $0, exact: false) } ?? ClientAddress.unknown
        if connections.open(key) {
            counted = key
        } else {
            logger.debug("Closing a connection: its address has \(connections.limit) open already (--max-connections-per-address)")
            metrics.recordConnectionRefusedPerAddress()
            context.close(promise: nil)
        }
    }

    private func release() {
        if let counted {
            connections.close(counted)
            self.counted = nil
        }
    }
}
