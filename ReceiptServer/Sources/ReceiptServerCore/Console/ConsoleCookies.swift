import Foundation
import Hummingbird

/// The console's cookies: always `HttpOnly` (no script reads them), `SameSite=Strict` (a browser
/// sends them only with requests a page of this site started), scoped to their path, and `Secure`
/// when the request came over TLS.
enum ConsoleCookies {
    /// The session cookie: a random identifier (``ConsoleSessionStore``), for every `/console` path.
    static let session = "receipt_console_session"
    /// The sign-in form's token (double submit: the cookie and the form's hidden field must match),
    /// so that another site cannot sign a browser in; only for `/console/sign-in`.
    static let signIn = "receipt_console_sign_in"

    /// The session cookie for `value`, lasting `maxAge` seconds.
    static func session(_ value: String, maxAge: Int, secure: Bool) -> Cookie {
        Cookie(name: session, value: value, maxAge: maxAge, path: "/console", secure: secure, httpOnly: true, sameSite: .strict)
    }

    /// The sign-in form's cookie, lasting 10 minutes.
    static func signIn(_ value: String, secure: Bool) -> Cookie {
        Cookie(name: signIn, value: value, maxAge: 600, path: "/console/sign-in", secure: secure, httpOnly: true, sameSite: .strict)
    }

    /// A cookie that deletes `name` at `path` (empty, `Max-Age=0`).
    static func removal(of name: String, path: String, secure: Bool) -> Cookie {
        Cookie(name: name, value: "", maxAge: 0, path: path, secure: secure, httpOnly: true, sameSite: .strict)
    }

    /// Whether the request reached the server over TLS: the server itself speaks plain HTTP, so
    /// over TLS means through a proxy that terminates it and says so (`X-Forwarded-Proto: https`
    /// or `Forwarded: proto=https`). A client claiming it falsely only loses its own cookies.
    static func isTLS(_ request: Request) -> Bool {
        if request.head.scheme?.lowercased() == "https" { return true }
        if let proto = ConsoleHeaders.value("X-Forwarded-Proto", in: request), proto.split(separator: ",").first?.trimmed.lowercased() == "https" {
            return true
        }
        if let forwarded = ConsoleHeaders.value("Forwarded", in: request) {
            let first = forwarded.split(separator: ",").first ?? ""
            for part in first.split(separator: ";") where part.trimmed.lowercased() == "proto=https" {
                return true
            }
        }
        return false
    }
}

extension Substring {
    /// Without leading and trailing spaces.
    fileprivate var trimmed: String { String(self).trimmingCharacters(in: .whitespaces) }
}
