/// How long a client may take, and how many connections the server keeps open: what stops a slow
/// or stalled client from holding a connection, a file descriptor or the shutdown.
///
/// Every limit closes the connection when it is exceeded (a stalled client is not answered, since
/// it is not reading or writing as HTTP expects). The request body size limit is
/// ``ServerConfiguration/maximumBodyBytes``.
public struct ConnectionLimits: Sendable, Hashable {
    /// A new connection must deliver its first request's complete headers within this time.
    public var headerTimeout: Duration
    /// Once a request's headers are in, its whole body must arrive within this time.
    public var bodyTimeout: Duration
    /// A kept-alive connection must deliver the next request's complete headers within this time
    /// after the previous response.
    public var idleTimeout: Duration
    /// The most connections open at once. At the limit the server stops accepting: new
    /// connections wait in the listen backlog until one closes.
    public var maximumConnections: Int
    /// The most connections open at once from one client address (an IPv4 address, or an IPv6
    /// /64 network); a connection over it is closed at once, unanswered. So one client holding
    /// connections it never finishes cannot take the others' share of ``maximumConnections``.
    /// Connections from a ``TrustedProxies`` address are not counted: the proxy caps its clients.
    public var maximumConnectionsPerAddress: Int
    /// On graceful shutdown, how long a request whose body is still being received may take to
    /// finish arriving before its connection is closed. Requests already received are answered.
    public var shutdownGracePeriod: Duration

    /// Creates limits; the defaults close a client that sends no complete headers within 10 s, and
    /// keep one address to 64 connections.
    ///
    /// - Parameters:
    ///   - headerTimeout: time for a new connection's first request headers.
    ///   - bodyTimeout: time for a request's whole body once its headers are in.
    ///   - idleTimeout: time for the next request's headers on a kept-alive connection.
    ///   - maximumConnections: connections open at once.
    ///   - maximumConnectionsPerAddress: connections open at once from one client address.
    ///   - shutdownGracePeriod: time a body still arriving gets on graceful shutdown.
    public init(
        headerTimeout: Duration = .seconds(10),
        bodyTimeout: Duration = .seconds(30),
        idleTimeout: Duration = .seconds(60),
        maximumConnections: Int = 1000,
        maximumConnectionsPerAddress: Int = 64,
        shutdownGracePeriod: Duration = .seconds(10)
    ) {
        self.headerTimeout = headerTimeout
        self.bodyTimeout = bodyTimeout
        self.idleTimeout = idleTimeout
        self.maximumConnections = maximumConnections
        self.maximumConnectionsPerAddress = maximumConnectionsPerAddress
        self.shutdownGracePeriod = shutdownGracePeriod
    }
}
