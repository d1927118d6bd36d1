/// Who may read `/metrics` (its request counts by route include the console's sign-ins and page
/// views, so it is not open by default), and where it is served.
///
/// - By default `/metrics` is on the server's port and needs a bearer token: the ``token`` when one
///   is set, else the access token (on a server started with `--allow-unauthenticated`, which has
///   no console, it is open).
/// - With a ``listener``, `/metrics` is served on that address and port alone (the server's port
///   answers it 404): open there, unless ``token`` is set. Keep that listener on a private address
///   (it is `127.0.0.1` unless told otherwise).
public struct MetricsExposure: Sendable, Hashable {
    /// The bearer token Prometheus presents (`--metrics-token`), or `nil`.
    public var token: String?
    /// A separate listener for `/metrics` (`--metrics-port`, `--metrics-host`), or `nil`.
    public var listener: Listener?

    /// A host and port to serve `/metrics` on.
    public struct Listener: Sendable, Hashable {
        /// The address to listen on.
        public var host: String
        /// The port; 0 picks a free one.
        public var port: Int

        /// Creates a listener on `host`:`port`.
        public init(host: String = "127.0.0.1", port: Int) {
            self.host = host
            self.port = port
        }
    }

    /// Creates the exposure; the default is `/metrics` on the server's port behind the access token.
    ///
    /// - Parameters:
    ///   - token: a token of its own for `/metrics` (checked with ``AccessTokenRule``).
    ///   - listener: a separate listener for `/metrics`.
    public init(token: String? = nil, listener: Listener? = nil) {
        self.token = token
        self.listener = listener
    }
}
