import Hummingbird
import NIOCore

/// The request context of the server's routes: Hummingbird's core context, the ``Caller``, the
/// client's address, and the strict JSON decoder the routes decode bodies with.
public struct ReceiptRequestContext: RequestContext, ClientAddressContext {
    public var coreContext: CoreRequestContextStorage
    /// Who sent the request; ``Caller/anonymous`` until ``BearerTokenMiddleware`` says otherwise.
    public var caller: Caller = .anonymous
    /// Whether the request presented the metrics token (``MetricsExposure``).
    public var presentedMetricsToken = false
    /// The connection's peer (a proxy's address when the server is behind one).
    public let peerAddress: SocketAddress?
    /// The client the request is counted for: the peer, or, from a trusted proxy, the address it
    /// forwarded (set by ``ClientAddressMiddleware``). An IPv6 client is counted by its /64 network.
    public var clientKey: String
    /// The largest body `request.decode(as:context:)` reads: the server's `--max-body-bytes`, set by
    /// ``BodyLimitMiddleware`` (64 KiB, the default limit, until then).
    public var maxUploadSize: Int = 64 * 1024

    /// Request bodies are decoded strictly (a member given twice is refused) and answered as
    /// ``APIError``s.
    public var requestDecoder: StrictJSONRequestDecoder { StrictJSONRequestDecoder() }

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.peerAddress = source.channel.remoteAddress
        self.clientKey = source.channel.remoteAddress.flatMap { ClientAddress.key(of: $0, exact: false) } ?? ClientAddress.unknown
    }
}

/// A request context that knows which client sent the request (for the console's sign-in throttle).
public protocol ClientAddressContext {
    /// The client the request is counted for (``ReceiptRequestContext/clientKey``).
    var clientKey: String { get }
}
