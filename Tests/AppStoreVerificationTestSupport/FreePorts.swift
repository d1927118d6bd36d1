import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Loopback ports nobody listens on yet, for servers started later (the `openssl ocsp` responders,
/// whose ports are written into the test certificates before they start).
///
/// They are taken below the kernel's ephemeral range (`ip_local_port_range`): a port the kernel
/// hands out for `bind(0)` or an outgoing connection could be given again, between this call and
/// the responder's own bind, to another server of this test process (they start on port 0), and
/// the responder would then fail to start while the readiness probe reached that other server.
public enum FreePorts {
    /// One port of 127.0.0.1 that nothing listens on now.
    public static func one() throws -> Int { Int(try take(1)[0]) }

    /// `count` distinct ports of 127.0.0.1 that nothing listens on now.
    public static func take(_ count: Int) throws -> [UInt16] {
        var sockets: [Int32] = []
        defer { sockets.forEach { close($0) } }
        var ports: [UInt16] = []
        let candidates = belowEphemeralRange().shuffled()
        for candidate in candidates where ports.count < count {
            if let fd = bindLoopback(port: candidate) {
                sockets.append(fd)
                ports.append(candidate)
            }
        }
        // Where the range could not be read (or is full), the kernel chooses.
        while ports.count < count {
            guard let fd = bindLoopback(port: 0) else { throw FixtureError("no free port on 127.0.0.1") }
            sockets.append(fd)
            var address = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let ok = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) == 0 }
            }
            guard ok else { throw FixtureError("getsockname failed on a bound socket") }
            ports.append(UInt16(bigEndian: address.sin_port))
        }
        return ports
    }

    /// Ports from 10000 up to the start of the kernel's ephemeral range (empty if it cannot be read).
    private static func belowEphemeralRange() -> [UInt16] {
        guard let text = try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8),
              let low = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).first.flatMap({ Int($0) }),
              low > 10_100 else { return [] }
        return (10_000..<low).map { UInt16($0) }
    }

    /// A socket bound to 127.0.0.1:`port` (not listening), or nil where the port is taken.
    private static func bindLoopback(port: UInt16) -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let ok = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        if ok { return fd }
        close(fd)
        return nil
    }
}
