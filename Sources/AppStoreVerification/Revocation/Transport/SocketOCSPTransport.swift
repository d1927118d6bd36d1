import Foundation

/// An ``OCSPTransport`` on POSIX sockets: a minimal HTTP/1.1 client for exactly what OCSP needs.
/// The default on Linux.
///
/// Why it exists: on Linux, FoundationNetworking's `URLSession` (libcurl driven by dispatch
/// sources) keeps a thread busy while a response is pending: measured on Linux (Swift 6.3), a POST
/// to a server that accepts and never answers cost 5.1 s of CPU in 5 s of wall-clock time, with
/// every `URLSession` configuration tried. While a responder hangs, each pending request would
/// hold a core. This transport sleeps in `poll` instead: a request waiting on a silent responder
/// costs next to no CPU.
///
/// What it does, per request:
/// - only `http://` URLs (anything else throws ``OCSPTransportError`` with
///   ``OCSPTransportError/Code/unsupportedURL`` before any I/O); no user information;
/// - resolves the host with `getaddrinfo` (an address literal is never looked up) and tries each
///   address in turn, with non-blocking connects; while more addresses follow, one that does not
///   answer gets at most half of the time left, so a black-holed route (IPv6, say) leaves time for
///   the next address;
/// - sends `POST` with `Host`, `Content-Type: application/ocsp-request`,
///   `Accept: application/ocsp-response`, `Content-Length` and `Connection: close`;
/// - reads an HTTP/1.0 or HTTP/1.1 response (interim 1xx responses skipped; headers at most
///   16 KiB; a body framed by `Content-Length`, by `Transfer-Encoding: chunked`, or by the end of
///   the connection), never more than `maximumResponseLength` body bytes: beyond it,
///   ``OCSPTransportError`` with ``OCSPTransportError/Code/responseTooLarge`` is thrown at once;
/// - never follows redirects: a 3xx is returned as it is;
/// - one absolute deadline, `timeout` after the call, bounds connecting, sending and reading, and
///   every wait is a `poll` of at most the time left; at the deadline it throws
///   `URLError(.timedOut)`. Name resolution (`getaddrinfo`) cannot be interrupted: the system
///   resolver's own timeouts bound it, and a deadline passed meanwhile is noticed right after (the
///   verifier's own timeout ends its wait regardless);
/// - runs on a thread of its own, never on Swift's cooperative pool; cancelling the calling task
///   throws `CancellationError` at once, and the thread closes its socket within 100 ms.
///
/// A response the transport cannot accept (malformed or cut short) throws ``OCSPTransportError``
/// with ``OCSPTransportError/Code/invalidResponse``; a host that cannot be resolved or reached, or a
/// connection reset, with ``OCSPTransportError/Code/unreachable``.
///
/// **HTTP proxy.** ``init()`` reads the environment once, as libcurl does for plain `http://`
/// URLs: `http_proxy` (lowercase only; the uppercase `HTTP_PROXY` is ignored because a CGI server
/// sets it from a client's `Proxy:` header) and `no_proxy` (or `NO_PROXY`): comma-separated host
/// names, each matching itself and its subdomains, or `*` for every host. ``init(proxy:)`` sets the
/// proxy explicitly instead (nil: always connect directly). Through a proxy, the request line
/// carries the absolute URL (`POST http://ocsp.apple.com/... HTTP/1.1`). The proxy must be an
/// `http://` URL (or `host:port`) without credentials; an unusable one makes every proxied request
/// fail with ``OCSPTransportError/Code/unsupportedURL``.
public struct SocketOCSPTransport: OCSPTransport {
    /// A transport shared by every verifier that does not configure its own (on Linux, the
    /// default); its proxy settings are read from the environment at first use.
    public static let shared = SocketOCSPTransport()

    private let proxy: OCSPHTTPProxy

    /// A transport that honours the `http_proxy` and `no_proxy` (`NO_PROXY`) environment
    /// variables, read now.
    public init() {
        proxy = OCSPHTTPProxy(environment: ProcessInfo.processInfo.environment)
    }

    /// A transport that sends every request through the HTTP proxy `proxy` (an `http://` URL), or
    /// directly to the responders when `proxy` is nil, whatever the environment says.
    public init(proxy: URL?) {
        self.proxy = OCSPHTTPProxy(url: proxy)
    }

    /// A transport with the proxy settings of `environment` (for tests).
    init(environment: [String: String]) {
        proxy = OCSPHTTPProxy(environment: environment)
    }

    public func post(_ body: Data, to url: URL, timeout: Duration, maximumResponseLength: Int) async throws -> OCSPHTTPResponse {
        // Bounded so that the deadline cannot overflow the clock (a year is "never" here).
        let deadline = ContinuousClock.now + min(timeout, .seconds(365 * 86_400))
        let endpoint = try OCSPHTTPEndpoint(url)
        let exchange = SocketOCSPExchange(
            endpoint: endpoint, proxy: try proxy.proxy(for: endpoint), body: body,
            deadline: deadline, timeout: timeout, maximumResponseLength: maximumResponseLength)
        try Task.checkCancellation()
        return try await DedicatedThread.run(named: "SocketOCSPTransport") { cancellation in
            try exchange.run(cancellation)
        }
    }
}
