import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A tiny HTTP server on 127.0.0.1 (or ::1) for the OCSP tests' misbehaving responders: it reads
/// each request and answers it the way it was told (a status, a fixed body, a huge body, a
/// redirect, raw bytes, or never), counting requests and keeping the last one's head and body. It
/// runs on its own thread for the life of the test process.
final class LoopbackHTTPServer: @unchecked Sendable {
    enum Behaviour: Sendable {
        /// Answers `status` with `body`.
        case respond(status: Int, body: Data)
        /// Answers 302 Found with a `Location` header naming `location` (and no body).
        case redirect(location: String)
        /// Accepts the connection, reads the request, and never answers.
        case silent
        /// Sends `bytes` as they are (status line, headers and body, well-formed or not), then
        /// closes the connection.
        case raw(Data)
    }

    let port: UInt16
    private let behaviour: Behaviour
    private let socket: Int32
    private let lock = NSLock()
    private var requests = 0
    private var held: [Int32] = []
    private var hungUp = false
    private var lastHead = ""
    private var lastBody = Data()

    /// Starts listening on `port` of 127.0.0.1 (of ::1 with `ipv6`); port 0 lets the kernel choose
    /// (read it back from ``port``).
    init(port: UInt16 = 0, behaviour: Behaviour, ipv6: Bool = false) throws {
        self.behaviour = behaviour
        let listener = Glibc.socket(ipv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw POSIXError(.EIO) }
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var bound: UInt16?
        if ipv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            address.sin6_addr = in6addr_loopback
            var length = socklen_t(MemoryLayout<sockaddr_in6>.size)
            let ok = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0 }
            }
            if ok { bound = UInt16(bigEndian: address.sin6_port) }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let ok = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0 }
            }
            if ok { bound = UInt16(bigEndian: address.sin_port) }
        }
        guard let bound, listen(listener, 64) == 0 else {
            close(listener)
            throw POSIXError(.EADDRINUSE)
        }
        self.port = bound
        socket = listener
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    /// Whether a server can listen on ::1 here (IPv6 may be off in a container).
    static let canListenOnIPv6Loopback: Bool = {
        let probe = Glibc.socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
        guard probe >= 0 else { return false }
        defer { close(probe) }
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_addr = in6addr_loopback
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(probe, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) == 0 }
        }
    }()

    /// How many requests arrived.
    var requestCount: Int { lock.withLock { requests } }

    /// The head (request line and header lines, CRLF-separated, without the blank line) of the
    /// last request read.
    var lastRequestHead: String { lock.withLock { lastHead } }

    /// The body of the last request read.
    var lastRequestBody: Data { lock.withLock { lastBody } }

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
            case .raw(let bytes):
                sendAll(connection, bytes)
                close(connection)
            }
        }
    }

    /// Sends `head` (status line and headers, each ending in CRLF), the body's length, and the body,
    /// then closes the connection.
    private func answer(_ connection: Int32, head: String, body: Data) {
        var bytes = Data((head + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n").utf8)
        bytes.append(body)
        sendAll(connection, bytes)
        close(connection)
    }

    /// Sends all of `bytes` (or until the peer is gone).
    private func sendAll(_ connection: Int32, _ bytes: Data) {
        bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            var offset = 0
            while offset < raw.count {
                let sent = send(connection, base + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if sent <= 0 { break }
                offset += sent
            }
        }
    }

    /// Reads the head and the Content-Length body of one request, and keeps them.
    private func readRequest(_ connection: Int32) {
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        var expected: Int?
        var headEnd: Int?
        defer {
            if let headEnd {
                let head = String(decoding: received[..<(headEnd - 4)], as: UTF8.self)
                let body = received[headEnd...]
                lock.withLock {
                    lastHead = head
                    lastBody = Data(body)
                }
            }
        }
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
                headEnd = end.upperBound - received.startIndex
            }
        }
    }
}
