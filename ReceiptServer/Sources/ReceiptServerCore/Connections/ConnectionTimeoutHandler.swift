import Logging
import NIOCore
import NIOHTTPTypes

/// Closes a connection whose client is too slow: headers of a new connection not complete within
/// ``ConnectionLimits/headerTimeout``, a body not complete within ``ConnectionLimits/bodyTimeout``
/// of its headers, the next request's headers not complete within ``ConnectionLimits/idleTimeout``
/// of the previous response. On graceful shutdown a body still arriving gets at most
/// ``ConnectionLimits/shutdownGracePeriod``, so a stalled upload cannot hold the shutdown.
///
/// It sits after the HTTP codec, so it sees request and response parts. While the server is
/// working on a request whose body is complete, no timeout runs (the server's own work is bounded
/// elsewhere: the database's busy timeout).
final class ConnectionTimeoutHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// Which limit closed a connection (the metrics label).
    enum Timeout: String, Sendable {
        case header, body, idle, shutdown
    }

    private enum Phase {
        /// Waiting for a request's headers: the first on a new connection, or the next one.
        case awaitingHead(first: Bool)
        /// Headers in, body not complete.
        case readingBody
        /// The request is complete; the server is answering.
        case responding
    }

    private let limits: ConnectionLimits
    private let logger: Logger
    private let metrics: ServerMetrics
    private var phase = Phase.awaitingHead(first: true)
    private var unansweredRequests = 0
    private var timer: Scheduled<Void>?
    private var deadline: NIODeadline?
    private var quiescing = false
    private var counted = false

    /// - Parameters:
    ///   - limits: the timeouts.
    ///   - logger: where a closed connection is logged (debug).
    ///   - metrics: where open connections and timeouts are counted.
    init(limits: ConnectionLimits, logger: Logger, metrics: ServerMetrics) {
        self.limits = limits
        self.logger = logger
        self.metrics = metrics
    }

    func handlerAdded(context: ChannelHandlerContext) {
        counted = true
        metrics.connectionOpened()
        if context.channel.isActive {
            arm(context, after: limits.headerTimeout, .header)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        disarm()
        if counted {
            counted = false
            metrics.connectionClosed()
        }
    }

    func channelActive(context: ChannelHandlerContext) {
        if timer == nil, case .awaitingHead(first: true) = phase {
            arm(context, after: limits.headerTimeout, .header)
        }
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        disarm()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            unansweredRequests += 1
            phase = .readingBody
            arm(context, after: quiescing ? min(limits.bodyTimeout, limits.shutdownGracePeriod) : limits.bodyTimeout, quiescing ? .shutdown : .body)
        case .body:
            break
        case .end:
            if unansweredRequests > 0 {
                phase = .responding
                disarm()
            } else {
                // Answered before its body was read (413, 401): the connection is idle now.
                phase = .awaitingHead(first: false)
                armIdle(context)
            }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            unansweredRequests = max(0, unansweredRequests - 1)
            if unansweredRequests == 0, case .responding = phase {
                phase = .awaitingHead(first: false)
                armIdle(context)
            }
        }
        context.write(data, promise: promise)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent {
            quiescing = true
            // A response the server is writing finishes; anything waiting on the client gets at
            // most the grace period. Hummingbird's own handler (after this one) closes idle
            // connections and closes the others after their response.
            switch phase {
            case .responding:
                break
            case .readingBody, .awaitingHead:
                let graceDeadline = NIODeadline.now() + TimeAmount(limits.shutdownGracePeriod)
                if deadline.map({ graceDeadline < $0 }) ?? true {
                    arm(context, at: graceDeadline, .shutdown)
                }
            }
        }
        context.fireUserInboundEventTriggered(event)
    }

    /// Waits for the next request: the idle timeout, or the grace period during shutdown.
    private func armIdle(_ context: ChannelHandlerContext) {
        arm(context, after: quiescing ? limits.shutdownGracePeriod : limits.idleTimeout, quiescing ? .shutdown : .idle)
    }

    private func arm(_ context: ChannelHandlerContext, after duration: Duration, _ reason: Timeout) {
        arm(context, at: .now() + TimeAmount(duration), reason)
    }

    private func arm(_ context: ChannelHandlerContext, at deadline: NIODeadline, _ reason: Timeout) {
        disarm()
        self.deadline = deadline
        let loopBound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(deadline: deadline) {
            let (handler, context) = loopBound.value
            handler.timer = nil
            handler.deadline = nil
            handler.logger.debug("Closing a connection: \(reason.rawValue) timeout", metadata: ["remote": "\(context.remoteAddress.map { "\($0)" } ?? "?")"])
            handler.metrics.recordConnectionTimeout(reason.rawValue)
            context.close(promise: nil)
        }
    }

    private func disarm() {
        timer?.cancel()
        timer = nil
        deadline = nil
    }
}
