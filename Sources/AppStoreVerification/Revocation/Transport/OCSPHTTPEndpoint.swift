import Foundation

/// Where ``SocketOCSPTransport`` connects and what it asks for, from an `http://` URL: the host
/// (a name, an IPv4 address, or an IPv6 address without its brackets), the port (80 by default)
/// and the request target (path and query, "/" by default; the fragment is dropped).
struct OCSPHTTPEndpoint: Sendable, Hashable {
    /// The host as getaddrinfo takes it: a name or an address, without brackets.
    let host: String
    let port: UInt16
    /// The origin-form request target: the path (percent-encoded as in the URL) and the query.
    let target: String

    /// The endpoint of `url`, or why it cannot be asked: only `http://` URLs with a host and no
    /// user information are.
    init(_ url: URL) throws(OCSPTransportError) {
        let text = url.absoluteString
        guard url.scheme?.lowercased() == "http" else {
            throw OCSPTransportError(.unsupportedURL, "\(text) is not an http:// URL; this transport speaks plain HTTP only (OCSP answers are signed)")
        }
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
            throw OCSPTransportError(.unsupportedURL, "\(text) cannot be parsed as a URL")
        }
        guard components.percentEncodedUser == nil, components.percentEncodedPassword == nil else {
            throw OCSPTransportError(.unsupportedURL, "the URL \(text) holds user information, which this transport does not send")
        }
        var host = components.host ?? ""
        if host.hasPrefix("["), host.hasSuffix("]") {
            host = String(host.dropFirst().dropLast())
        }
        guard !host.isEmpty, host.utf8.allSatisfy(Self.isHostByte) else {
            throw OCSPTransportError(.unsupportedURL, "the URL \(text) has no usable host")
        }
        guard let port = UInt16(exactly: components.port ?? 80), port != 0 else {
            throw OCSPTransportError(.unsupportedURL, "the URL \(text) has an invalid port")
        }
        var target = components.percentEncodedPath
        if target.isEmpty { target = "/" }
        if let query = components.percentEncodedQuery { target += "?" + query }
        guard target.hasPrefix("/"), target.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw OCSPTransportError(.unsupportedURL, "the URL \(text) has a path that cannot be sent as it is")
        }
        self.host = host
        self.port = port
        self.target = target
    }

    /// The `Host` header's value: the host (in brackets for an IPv6 address), with the port when
    /// it is not 80.
    var hostHeader: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return port == 80 ? name : "\(name):\(port)"
    }

    /// The absolute-form request target, for a request through a proxy.
    var absoluteTarget: String { "http://\(hostHeader)\(target)" }

    /// Letters, digits, and `.-_:%` (names, IPv4 and IPv6 addresses, IPv6 zone identifiers): no
    /// byte that could end a header line or a request line.
    private static func isHostByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        case UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: ":"), UInt8(ascii: "%"): true
        default: false
        }
    }
}
