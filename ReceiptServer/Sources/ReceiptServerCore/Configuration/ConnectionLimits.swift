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
    /// On graceful shutdown, how long a request whose body is still being received may take to
    /// finish arriving before its connection is closed. Requests already received are answered.
    public var shutdownGracePeriod: Duration

    /// Creates limits; the defaults close a client that sends no complete headers within 30 s.
    ///
    /// - Parameters:
    ///   - headerTimeout: time for a new connection's first request headers.
    ///   - bodyTimeout: time for a request's whole body once its headers are in.
    ///   - idleTimeout: time for the next request's headers on a kept-alive connection.
    ///   - maximumConnections: connections open at once.
    ///   - shutdownGracePeriod: time a body still arriving gets on graceful shutdown.
    public init(
        headerTimeout: Duration = .seconds(30),
        bodyTimeout: Duration = .seconds(30),
        idleTimeout: Duration = .seconds(60),
        maximumConnections: Int = 1000,
        shutdownGracePeriod: Duration = .seconds(10)
    ) {
        self.headerTimeout = headerTimeout
        self.bodyTimeout = bodyTimeout
        self.idleTimeout = idleTimeout
        self.maximumConnections = maximumConnections
        self.shutdownGracePeriod = shutdownGracePeriod
    }
}
