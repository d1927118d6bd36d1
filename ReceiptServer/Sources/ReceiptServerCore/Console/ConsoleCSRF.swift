import Hummingbird

/// Cross-site request forgery defences of the console's forms (every state-changing request is a
/// POST of one of them):
///
/// 1. the cookies are `SameSite=Strict`, so a browser sends none with a request another site starts;
/// 2. the browser's own word on where a request comes from: `Sec-Fetch-Site` must be `same-origin`
///    (or `none`: typed by the user), and `Origin`, when sent, must name this server: the same
///    scheme (`https` when a proxy says it terminated TLS, see ``ConsoleCookies/isTLS(_:)``), host
///    and port (a missing port is the scheme's default) as the request. Pages
///    served with `Referrer-Policy: no-referrer` make browsers send `Origin: null` even for their
///    own forms, so `null` passes only with `Sec-Fetch-Site: same-origin`;
/// 3. a token in the form: the session's CSRF token (sign-in: the sign-in cookie's value, double
///    submit), compared in constant time. A page of another site cannot read it.
enum ConsoleCSRF {
    /// Refuses a request the browser says another site started.
    static func checkSameOrigin(_ request: Request) throws(ConsoleError) {
        let site = ConsoleHeaders.value("Sec-Fetch-Site", in: request)?.lowercased()
        if let site, site != "same-origin", site != "none" {
            throw ConsoleError.forgedForm
        }
        guard let origin = request.headers[.origin] else { return }
        if origin.trimmingCharacters(in: .whitespaces).lowercased() == "null" {
            guard site == "same-origin" else { throw ConsoleError.forgedForm }
            return
        }
        guard let (originScheme, originAuthority) = Self.parts(ofOrigin: origin) else { throw ConsoleError.forgedForm }
        let scheme = ConsoleCookies.isTLS(request) ? "https" : "http"
        guard originScheme == scheme, let originEndpoint = Self.endpoint(originAuthority, scheme: scheme) else { throw ConsoleError.forgedForm }
        let accepted = [request.head.authority, ConsoleHeaders.value("X-Forwarded-Host", in: request)?.split(separator: ",").first.map(String.init)]
            .compactMap { $0.flatMap { Self.endpoint($0.trimmingCharacters(in: .whitespaces).lowercased(), scheme: scheme) } }
        guard accepted.contains(where: { $0 == originEndpoint }) else { throw ConsoleError.forgedForm }
    }

    /// `(host, port)` of an authority (`host[:port]`, `[v6]:port`), the port defaulting to the
    /// scheme's; `nil` when the port is not a number.
    static func endpoint(_ authority: String, scheme: String) -> (host: String, port: Int)? {
        let defaultPort = scheme == "https" ? 443 : 80
        var host = Substring(authority)
        var portText: Substring?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return nil }
            let rest = host[host.index(after: close)...]
            if rest.hasPrefix(":") { portText = rest.dropFirst() } else if !rest.isEmpty { return nil }
            host = host[...close]
        } else if let colon = host.lastIndex(of: ":") {
            portText = host[host.index(after: colon)...]
            host = host[..<colon]
        }
        guard !host.isEmpty else { return nil }
        guard let portText else { return (String(host), defaultPort) }
        guard let port = Int(portText), (1...65535).contains(port) else { return nil }
        return (String(host), port)
    }

    /// The scheme and `host[:port]` of an `Origin` value (`scheme://host[:port]`), lowercased;
    /// `nil` for `null` or anything else.
    static func parts(ofOrigin origin: String) -> (scheme: String, authority: String)? {
        let lowered = origin.trimmingCharacters(in: .whitespaces).lowercased()
        for scheme in ["http", "https"] where lowered.hasPrefix(scheme + "://") {
            let authority = lowered.dropFirst(scheme.count + 3)
            guard !authority.isEmpty, !authority.contains("/") else { return nil }
            return (scheme, String(authority))
        }
        return nil
    }

    /// Refuses a form whose token is not `expected`.
    static func checkToken(_ presented: String?, expected: String) throws(ConsoleError) {
        guard let presented, !expected.isEmpty, ConsoleRandom.constantTimeEquals(presented, expected) else {
            throw ConsoleError.forgedForm
        }
    }

    /// `host[:port]` of an `Origin` value (`scheme://host[:port]`), lowercased; `nil` for `null` or
    /// anything else.
    static func host(ofOrigin origin: String) -> String? {
        parts(ofOrigin: origin)?.authority
    }
}
