import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A tiny HTTP server on 127.0.0.1 for the OCSP tests' misbehaving responders: it reads each request
/// and answers it the way it was told (a status, a fixed body, a huge body, a redirect, or never),
/// counting requests. It runs on its own thread for the life of the test process.
final class LoopbackHTTPServer: @unchecked Sendable {
    enum Behaviour: Sendable {
        /// Answers `status` with `body`.
        case respond(status: Int, body: Data)
        /// Answers 302 Found with a `Location` header naming `location` (and no body).
        case redirect(location: String)
        /// Accepts the connection, reads the request, and never answers.
        case silent
    }

    let port: UInt16
    private let behaviour: Behaviour
    private let socket: Int32
    private let lock = NSLock()
    private var requests = 0
    private var held: [Int32] = []
    private var hungUp = false

    /// Starts listening on `port` (127.0.0.1).
    init(port: UInt16, behaviour: Behaviour) throws {
        self.port = port
        self.behaviour = behaviour
        let listener = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw POSIXError(.EIO) }
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 64) == 0 else {
            close(listener)
            throw POSIXError(.EADDRINUSE)
        }
        socket = listener
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    /// How many requests arrived.
    var requestCount: Int { lock.withLock { requests } }

    /// Closes the connections a `.silent` server holds, and from now on those it accepts once it
    /// has read their request, so that the requests waiting on them end (with an empty reply)
    /// instead of lasting until their timeout.
    func hangUp() {
        let connections = lock.withLock {
            let taken = held
            held = []
            hungUp = true
            return taken
        }
        connections.forEach { close($0) }
    }

    private func serve() {
        while true {
            let connection = accept(socket, nil, nil)
            guard connection >= 0 else { return }
            readRequest(connection)
            lock.withLock { requests += 1 }
            switch behaviour {
            case .silent:
                // Kept open, never answered (unless hung up).
                let keep = lock.withLock {
                    if !hungUp { held.append(connection) }
                    return !hungUp
                }
                if !keep { close(connection) }
            case .respond(let status, let body):
                answer(connection, head: "HTTP/1.1 \(status) \(status == 200 ? "OK" : "Error")\r\nContent-Type: application/ocsp-response\r\n", body: body)
            case .redirect(let location):
                answer(connection, head: "HTTP/1.1 302 Found\r\nLocation: \(location)\r\n", body: Data())
            }
        }
    }

    /// Sends `head` (status line and headers, each ending in CRLF), the body's length, and the body,
    /// then closes the connection.
    private func answer(_ connection: Int32, head: String, body: Data) {
        var bytes = Data((head + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n").utf8)
        bytes.append(body)
        bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            var offset = 0
            while offset < raw.count {
                let sent = send(connection, base + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if sent <= 0 { break }
                offset += sent
            }
        }
        close(connection)
    }

    /// Reads the head and the Content-Length body of one request.
    private func readRequest(_ connection: Int32) {
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        var expected: Int?
        while true {
            if let expected, received.count >= expected { return }
            let count = recv(connection, &buffer, buffer.count, 0)
            if count <= 0 { return }
            received.append(contentsOf: buffer[..<count])
            if expected == nil, let end = received.range(of: Data("\r\n\r\n".utf8)) {
                let head = String(decoding: received[..<end.lowerBound], as: UTF8.self).lowercased()
                let length = head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                expected = end.upperBound - received.startIndex + length
            }
        }
    }
}

/// Loopback ports nobody listens on yet, chosen by the kernel.
enum FreePorts {
    static func take(_ count: Int) throws -> [UInt16] {
        var sockets: [Int32] = []
        defer { sockets.forEach { close($0) } }
        var ports: [UInt16] = []
        for _ in 0..<count {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { throw POSIXError(.EIO) }
            sockets.append(fd)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = 0
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let ok = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                    bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
                }
            }
            guard ok else { throw POSIXError(.EADDRINUSE) }
            ports.append(UInt16(bigEndian: address.sin_port))
        }
        return ports
    }
}
