import Hummingbird

/// The headers every console response carries, and reading request headers by name.
enum ConsoleHeaders {
    /// The Content-Security-Policy: scripts, styles and everything else only from this server's
    /// own files (`/console/static/…`), never inline; no plugins, no `<base>`, no framing, forms
    /// only to this server.
    static let contentSecurityPolicy =
        "default-src 'self'; script-src 'self'; style-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"

    /// The security headers of every console response (pages, redirects, errors, static files).
    static let security: [HTTPFields.Element] = [
        ("Content-Security-Policy", contentSecurityPolicy),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
        ("X-Frame-Options", "DENY"),
        ("Cross-Origin-Opener-Policy", "same-origin"),
    ].compactMap { name, value in HTTPFields.Element.Name(name).map { HTTPFields.Element(name: $0, value: value) } }

    /// `Cache-Control` of pages: they hold customer data, so no cache keeps them.
    static let noStore = "no-store"

    /// The value of the request header `name`, if present.
    static func value(_ name: String, in request: Request) -> String? {
        HTTPFields.Element.Name(name).flatMap { request.headers[$0] }
    }
}
