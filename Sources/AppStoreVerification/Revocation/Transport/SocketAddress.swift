import Foundation
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#elseif canImport(Darwin)
internal import Darwin
#else
#error("SocketOCSPTransport needs the POSIX sockets of Glibc, Musl or Darwin")
#endif

/// One address a host name resolved to, for ``SocketConnection``: a copy of a `getaddrinfo`
/// result, kept after the result list is freed.
struct SocketAddress {
    /// The socket address (IPv4 or IPv6), in storage large enough for either.
    private(set) var storage: sockaddr_storage
    /// How many bytes of ``storage`` the address takes.
    let length: socklen_t
    /// `AF_INET` or `AF_INET6`.
    let family: Int32
    /// The protocol `getaddrinfo` gave for it.
    let socketProtocol: Int32
    /// The numeric address, for messages ("127.0.0.1", "::1").
    let text: String

    /// The addresses of `host` (a name, resolved with `getaddrinfo`, or an address literal, never
    /// looked up) at `port`, in the resolver's order.
    static func resolve(host: String, port: UInt16) throws -> [SocketAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        // glibc: SOCK_STREAM is a case of the C enum __socket_type.
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        // Darwin and musl: an Int32 macro.
        hints.ai_socktype = SOCK_STREAM
        #endif
        hints.ai_flags = AI_NUMERICSERV | (isAddressLiteral(host) ? AI_NUMERICHOST : 0)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            let reason = status == EAI_SYSTEM ? SocketConnection.systemError(errno) : String(cString: gai_strerror(status))
            throw OCSPTransportError(.unreachable, "the host name \(host) cannot be resolved: \(reason)")
        }
        defer { freeaddrinfo(first) }
        var addresses: [SocketAddress] = []
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let info = candidate {
            candidate = info.pointee.ai_next
            if let address = SocketAddress(info.pointee) { addresses.append(address) }
        }
        guard !addresses.isEmpty else {
            throw OCSPTransportError(.unreachable, "the host name \(host) resolved to no usable address")
        }
        return addresses
    }

    /// A copy of `info`'s address; nil when it has none or it does not fit.
    private init?(_ info: addrinfo) {
        guard let address = info.ai_addr, Int(info.ai_addrlen) <= MemoryLayout<sockaddr_storage>.size else { return nil }
        var storage = sockaddr_storage()
        withUnsafeMutableBytes(of: &storage) { target in
            target.copyMemory(from: UnsafeRawBufferPointer(start: address, count: Int(info.ai_addrlen)))
        }
        self.storage = storage
        length = info.ai_addrlen
        family = info.ai_family
        socketProtocol = info.ai_protocol
        text = Self.numericHost(address, info.ai_addrlen)
    }

    /// Calls `body` with the address as a `sockaddr` pointer and its length.
    mutating func withSocketAddress<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        let length = self.length
        return withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
        }
    }

    /// Whether `host` is an IPv4 or IPv6 address (IPv6 possibly with a zone), not a name.
    private static func isAddressLiteral(_ host: String) -> Bool {
        if host.contains(":") { return true }
        var address = in_addr()
        return inet_pton(AF_INET, host, &address) == 1
    }

    /// The numeric text of a socket address.
    private static func numericHost(_ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> String {
        var buffer = [CChar](repeating: 0, count: 128)
        let status = buffer.withUnsafeMutableBufferPointer { text in
            getnameinfo(address, length, text.baseAddress, socklen_t(text.count), nil, 0, NI_NUMERICHOST)
        }
        guard status == 0 else { return "?" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
