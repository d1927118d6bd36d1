import Foundation
import NIOCore

/// The key a client is counted by (connections per address, failed token guesses): an IPv4
/// address, or an IPv6 address's /64 network (one host usually holds a whole /64, so counting single
/// IPv6 addresses would let it use 2^64 of them).
enum ClientAddress {
    /// The key of a connection whose peer has no IP address (a Unix socket, or unknown).
    static let unknown = "unknown"

    /// `address`'s key; `exact` keeps a whole IPv6 address (to match a configured proxy).
    static func key(of address: SocketAddress, exact: Bool) -> String? {
        switch address {
        case .v4:
            return address.ipAddress
        case .v6(let v6):
            var bytes = withUnsafeBytes(of: v6.address.sin6_addr) { Array($0) }
            // An IPv4-mapped address (::ffff:a.b.c.d) is that IPv4 address.
            if bytes.prefix(10).allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
                return bytes[12...].map(String.init).joined(separator: ".")
            }
            if !exact { for index in 8..<16 { bytes[index] = 0 } }
            let groups = stride(from: 0, to: 16, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
            return groups.joined(separator: ":") + (exact ? "" : "/64")
        case .unixDomainSocket:
            return unknown
        }
    }

    /// The key of an address written as text (`192.0.2.1`, `2001:db8::1`), or `nil` when it is not
    /// an IP address.
    static func key(ofLiteral literal: String, exact: Bool) -> String? {
        var text = literal.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        guard !text.isEmpty, text.allSatisfy({ $0.isHexDigit || $0 == "." || $0 == ":" }),
              let address = try? SocketAddress(ipAddress: text, port: 0)
        else { return nil }
        return key(of: address, exact: exact)
    }
}
