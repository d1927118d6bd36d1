import Hummingbird

/// Cross-site request forgery defences of the console's forms (every state-changing request is a
/// POST of one of them):
///
/// 1. the cookies are `SameSite=Strict`, so a browser sends none with a request another site starts;
/// 2. the browser's own word on where a request comes from: `Sec-Fetch-Site` must be `same-origin`
///    (or `none`: typed by the user), and `Origin`, when sent, must name this server's host. Pages
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
        guard let host = Self.host(ofOrigin: origin) else { throw ConsoleError.forgedForm }
        let accepted = [request.head.authority, ConsoleHeaders.value("X-Forwarded-Host", in: request)?.split(separator: ",").first.map(String.init)]
            .compactMap { $0?.trimmingCharacters(in: .whitespaces).lowercased() }
        guard accepted.contains(host) else { throw ConsoleError.forgedForm }
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
        let lowered = origin.trimmingCharacters(in: .whitespaces).lowercased()
        for scheme in ["http://", "https://"] where lowered.hasPrefix(scheme) {
            let host = lowered.dropFirst(scheme.count)
            guard !host.isEmpty, !host.contains("/") else { return nil }
            return String(host)
        }
        return nil
    }
}
