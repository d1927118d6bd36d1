import Foundation

/// A validated base URL: `https://` anywhere, `http://` only to a loopback host (for tests).
struct BaseURL: Sendable, Hashable {
    /// Scheme, host and port, without a trailing slash (paths start with `/`).
    let text: String

    /// Validates `text` as a base URL override.
    ///
    /// - Throws: ``AppStoreServerAPIError`` (`invalidRequest`) for anything but an `https` URL or an
    ///   `http` URL whose host is 127.0.0.1, ::1 or localhost, or a URL with a query, a fragment or
    ///   credentials.
    init(validating text: String) throws(AppStoreServerAPIError) {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
              let host = components.host, !host.isEmpty
        else {
            throw AppStoreServerAPIError(.invalidRequest, "the base URL \"\(text)\" is not an absolute URL with a host; give one such as https://api.storekit-sandbox.itunes.apple.com")
        }
        // The port as written: URLComponents takes any number of digits (or none), and SwiftNIO
        // traps on a port past 65535.
        if let port = Self.writtenPort(of: text), !(port.allSatisfy(\.isASCII) && port.allSatisfy(\.isNumber) && (Int(port).map { (1...65_535).contains($0) } ?? false)) {
            throw AppStoreServerAPIError(.invalidRequest, "the base URL \"\(text)\" names the port \"\(port)\"; a port is a number from 1 to 65535")
        }
        guard components.query == nil, components.fragment == nil, components.user == nil, components.password == nil else {
            throw AppStoreServerAPIError(.invalidRequest, "the base URL \"\(text)\" must be scheme, host, port and path only (no query, fragment or credentials)")
        }
        switch scheme {
        case "https":
            break
        case "http":
            guard Self.isLoopback(host) else {
                throw AppStoreServerAPIError(.invalidRequest, "the base URL \"\(text)\" uses http to \(host), which is not a loopback host: the bearer token would travel in clear; use https, or http only to 127.0.0.1, ::1 or localhost (for tests)")
            }
        default:
            throw AppStoreServerAPIError(.invalidRequest, "the base URL \"\(text)\" has the scheme \(scheme); only https (and http to a loopback host, for tests) is allowed")
        }
        var trimmed = text
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        self.text = trimmed
    }

    /// The port of `text` as written (what follows the host's `:` in the authority), `nil` when
    /// the authority names none.
    static func writtenPort(of text: String) -> Substring? {
        guard let schemeEnd = text.range(of: "://") else { return nil }
        let rest = text[schemeEnd.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let hostAndPort = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? authority
        // After an IPv6 literal's closing bracket, or after the last colon of any other host.
        let afterHost: Substring
        if hostAndPort.hasPrefix("[") {
            guard let close = hostAndPort.firstIndex(of: "]") else { return nil }
            afterHost = hostAndPort[hostAndPort.index(after: close)...]
        } else {
            guard let colon = hostAndPort.firstIndex(of: ":") else { return nil }
            afterHost = hostAndPort[colon...]
        }
        guard afterHost.first == ":" else { return nil }
        return afterHost.dropFirst()
    }

    /// Whether `host` (as URLComponents gives it, IPv6 possibly bracketed) is a loopback name.
    static func isLoopback(_ host: String) -> Bool {
        var name = host.lowercased()
        if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        return name == "127.0.0.1" || name == "::1" || name == "localhost"
    }
}
