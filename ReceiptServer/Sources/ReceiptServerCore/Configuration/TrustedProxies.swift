import Foundation
import NIOCore

/// The proxies whose `X-Forwarded-For` header the server believes: for a connection from one of
/// them, the client is the address the proxy appended last (the right-most entry that is not itself
/// a trusted proxy); for any other connection, the header is ignored and the client is the
/// connection's peer.
///
/// The client address is what the per-address connection cap
/// (``ConnectionLimits/maximumConnectionsPerAddress``) and the guessing throttle
/// (``AuthenticationThrottleLimits``) count by. Connections from a trusted proxy are not capped per
/// address: the proxy carries many clients, and must cap them itself (README, "Behind a proxy").
/// Empty by default: no header is believed.
public struct TrustedProxies: Sendable, Hashable {
    /// The proxies' addresses, as ``ClientAddress`` keys.
    let keys: Set<String>

    /// No trusted proxy: `X-Forwarded-For` is ignored.
    public init() {
        self.keys = []
    }

    /// Trusts `addresses` (IPv4 or IPv6 literals).
    ///
    /// - Throws: ``InvalidProxyAddressError`` naming an entry that is not an IP address.
    public init(_ addresses: [String]) throws(InvalidProxyAddressError) {
        var keys: Set<String> = []
        for address in addresses {
            guard let key = ClientAddress.key(ofLiteral: address, exact: true) else { throw InvalidProxyAddressError(address: address) }
            keys.insert(key)
        }
        self.keys = keys
    }

    /// Whether no proxy is trusted.
    public var isEmpty: Bool { keys.isEmpty }

    /// Whether `peer` is a trusted proxy.
    func contains(_ peer: SocketAddress?) -> Bool {
        guard !keys.isEmpty, let key = peer.flatMap({ ClientAddress.key(of: $0, exact: true) }) else { return false }
        return keys.contains(key)
    }

    /// The client key of a request from `peer` carrying `forwardedFor` (every `X-Forwarded-For`
    /// value, in order): the peer's key, unless the peer is a trusted proxy; then the right-most
    /// forwarded address that is not a trusted proxy (the proxy's own peer when the header is
    /// missing or unreadable).
    func clientKey(peer: SocketAddress?, forwardedFor: [String]) -> String {
        let peerKey = peer.flatMap { ClientAddress.key(of: $0, exact: false) } ?? ClientAddress.unknown
        guard contains(peer) else { return peerKey }
        let entries = forwardedFor.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        for entry in entries.reversed() {
            guard let exact = ClientAddress.key(ofLiteral: entry, exact: true) else { return peerKey }
            if keys.contains(exact) { continue }
            return ClientAddress.key(ofLiteral: entry, exact: false) ?? peerKey
        }
        return peerKey
    }
}

/// A trusted proxy's address is not an IPv4 or IPv6 address.
public struct InvalidProxyAddressError: Error, Sendable, CustomStringConvertible {
    /// The entry as given.
    public let address: String

    public var description: String {
        "The trusted proxy \"\(address)\" is not an IP address (--trusted-proxy, RECEIPT_SERVER_TRUSTED_PROXIES): give the proxy's IPv4 or IPv6 address as it connects to this server, such as 10.0.0.5."
    }
}
