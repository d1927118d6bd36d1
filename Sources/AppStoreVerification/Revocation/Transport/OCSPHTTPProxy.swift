import Foundation

/// Which HTTP proxy, if any, ``SocketOCSPTransport`` sends a request through.
///
/// From the environment as libcurl reads it for plain `http://` URLs: `http_proxy` (lowercase only:
/// the uppercase `HTTP_PROXY` can be set by a client through a CGI server's `Proxy:` header, so
/// libcurl ignores it, and so does this), and the exclusions of `no_proxy` (or `NO_PROXY` when
/// `no_proxy` is unset): comma-separated host names, each matching itself and its subdomains (a
/// leading dot is ignored), or `*` for every host. Addresses in `no_proxy` match only the same
/// address, written the same way (no CIDR ranges).
struct OCSPHTTPProxy: Sendable {
    /// The proxy, or why the one configured cannot be used; nil to connect directly.
    let proxy: Result<OCSPHTTPEndpoint, OCSPTransportError>?
    /// `no_proxy`'s entries, lowercased, without leading dots or brackets; "*" matches every host.
    let exclusions: [String]

    /// No proxy: every request goes directly to its responder.
    static let direct = OCSPHTTPProxy(proxy: nil, exclusions: [])

    private init(proxy: Result<OCSPHTTPEndpoint, OCSPTransportError>?, exclusions: [String]) {
        self.proxy = proxy
        self.exclusions = exclusions
    }

    /// Every request through `url` (an `http://` proxy URL, or `host:port`), or directly when nil.
    init(url: URL?) {
        self.init(proxy: url.map { Self.endpoint(ofProxy: $0.absoluteString, from: "the proxy URL") }, exclusions: [])
    }

    /// The proxy `environment` configures: `http_proxy`, `no_proxy`, `NO_PROXY`.
    init(environment: [String: String]) {
        let setting = environment["http_proxy"]?.trimmingCharacters(in: .whitespaces) ?? ""
        let exclusions = (environment["no_proxy"] ?? environment["NO_PROXY"] ?? "")
            .split(separator: ",")
            .map { entry -> String in
                var name = entry.trimmingCharacters(in: .whitespaces).lowercased()
                if name.hasPrefix("[") && name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
                while name.hasPrefix(".") { name.removeFirst() }
                return name
            }
            .filter { !$0.isEmpty }
        self.init(proxy: setting.isEmpty ? nil : Self.endpoint(ofProxy: setting, from: "http_proxy"), exclusions: exclusions)
    }

    /// The proxy to send a request for `endpoint` through, nil to connect directly; throws when a
    /// proxy is configured but unusable.
    func proxy(for endpoint: OCSPHTTPEndpoint) throws(OCSPTransportError) -> OCSPHTTPEndpoint? {
        guard let proxy, !isExcluded(endpoint.host) else { return nil }
        return try proxy.get()
    }

    /// Whether `no_proxy` names `host` (or a domain above it, or `*`).
    func isExcluded(_ host: String) -> Bool {
        let host = host.lowercased()
        return exclusions.contains { $0 == "*" || host == $0 || host.hasSuffix("." + $0) }
    }

    /// The proxy's host and port from `text` (`http://host:port/`, or `host:port`, as libcurl
    /// takes it); `source` names the setting in messages.
    private static func endpoint(ofProxy text: String, from source: String) -> Result<OCSPHTTPEndpoint, OCSPTransportError> {
        let withScheme = text.contains("://") ? text : "http://" + text
        guard let url = URL(string: withScheme) else {
            return .failure(OCSPTransportError(.unsupportedURL, "the HTTP proxy \"\(text)\" (\(source)) is not a URL"))
        }
        do {
            return .success(try OCSPHTTPEndpoint(url))
        } catch {
            return .failure(OCSPTransportError(.unsupportedURL, "the HTTP proxy \"\(text)\" (\(source)) cannot be used (an http:// proxy without credentials is needed): \(error.message)"))
        }
    }
}
