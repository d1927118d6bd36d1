import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A TCP port on 127.0.0.1 whose connection attempts are never answered: a listener with an accept
/// backlog of zero, filled by one connection it never accepts, so that the kernel silently drops
/// every further SYN, as a firewall that black-holes a route does. Closed when released.
final class BlackHoleListener {
    let port: UInt16
    private var descriptors: [Int32] = []

    init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw POSIXError(.EIO) }
        descriptors.append(listener)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0 }
        }
        guard bound, listen(listener, 0) == 0 else { throw POSIXError(.EADDRINUSE) }
        port = UInt16(bigEndian: address.sin_port)
        // The one connection the backlog holds: completed by the kernel, never accepted.
        let filler = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard filler >= 0 else { throw POSIXError(.EIO) }
        descriptors.append(filler)
        let connected = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(filler, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard connected else { throw POSIXError(.ECONNREFUSED) }
    }

    deinit { descriptors.forEach { close($0) } }
}
