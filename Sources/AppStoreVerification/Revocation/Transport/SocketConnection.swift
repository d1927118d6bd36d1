import Foundation
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// One non-blocking TCP connection for ``SocketOCSPTransport``, with every wait bounded by an
/// absolute deadline and by a cancellation flag.
///
/// Waits are `poll` calls of at most 100 ms each (less when the deadline is nearer), so the thread
/// sleeps in the kernel while the peer is silent, and sees a cancellation within 100 ms. The socket
/// is closed when the connection is released, whatever path that is on.
final class SocketConnection {
    /// The longest single wait, and so the longest a cancellation goes unnoticed.
    static let waitSlice: Duration = .milliseconds(100)

    private let descriptor: Int32
    /// "host port N", for messages.
    let peer: String
    private let deadline: ContinuousClock.Instant
    private let timeout: Duration
    private let cancellation: CancellationFlag

    private init(descriptor: Int32, peer: String, deadline: ContinuousClock.Instant, timeout: Duration, cancellation: CancellationFlag) {
        self.descriptor = descriptor
        self.peer = peer
        self.deadline = deadline
        self.timeout = timeout
        self.cancellation = cancellation
    }

    deinit { close(descriptor) }

    /// Resolves `host` (with getaddrinfo; an address literal is never looked up) and connects to
    /// each of its addresses in turn until one accepts, each attempt bounded by what remains of
    /// `timeout` before `deadline`.
    static func connect(host: String, port: UInt16, deadline: ContinuousClock.Instant, timeout: Duration, cancellation: CancellationFlag) throws -> SocketConnection {
        let peer = "\(host.contains(":") ? "[\(host)]" : host) port \(port)"
        try check(cancellation, deadline, timeout, "before connecting to \(peer)")
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        hints.ai_flags = AI_NUMERICSERV | (isAddressLiteral(host) ? AI_NUMERICHOST : 0)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            let reason = status == EAI_SYSTEM ? systemError(errno) : String(cString: gai_strerror(status))
            throw OCSPTransportError(.unreachable, "the host name \(host) cannot be resolved: \(reason)")
        }
        defer { freeaddrinfo(first) }

        var failures: [String] = []
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let address = candidate {
            candidate = address.pointee.ai_next
            try check(cancellation, deadline, timeout, "connecting to \(peer)")
            let text = numericHost(of: address.pointee)
            #if canImport(Glibc)
            let descriptor = socket(address.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), address.pointee.ai_protocol)
            #else
            let descriptor = socket(address.pointee.ai_family, SOCK_STREAM, address.pointee.ai_protocol)
            #endif
            guard descriptor >= 0 else {
                failures.append("\(text): \(systemError(errno))")
                continue
            }
            // Owned from here on: closed when released, on every path.
            let connection = SocketConnection(descriptor: descriptor, peer: peer, deadline: deadline, timeout: timeout, cancellation: cancellation)
            if let problem = connection.configure() {
                failures.append("\(text): \(problem)")
                continue
            }
            if let problem = try connection.connect(to: address.pointee, what: "connecting to \(peer)") {
                failures.append("\(text): \(problem)")
                continue
            }
            return connection
        }
        throw OCSPTransportError(.unreachable, "no connection could be made to \(peer) (\(failures.joined(separator: "; ")))")
    }

    /// Non-blocking, close-on-exec, and (on Apple platforms) no SIGPIPE; a message when it fails.
    private func configure() -> String? {
        let flags = fcntl(descriptor, F_GETFL, 0)
        guard flags >= 0, fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) == 0 else {
            return "cannot make the socket non-blocking: \(Self.systemError(errno))"
        }
        #if !canImport(Glibc)
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        var on: Int32 = 1
        guard setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
            return "cannot set SO_NOSIGPIPE: \(Self.systemError(errno))"
        }
        #endif
        return nil
    }

    /// Connects to `address`, waiting for the handshake; a message when the peer refuses or cannot
    /// be reached, and throws on timeout or cancellation.
    private func connect(to address: addrinfo, what: String) throws -> String? {
        guard let socketAddress = address.ai_addr else { return "no address" }
        var result: Int32
        repeat {
            result = Self.systemConnect(descriptor, socketAddress, address.ai_addrlen)
        } while result != 0 && errno == EINTR
        if result == 0 { return nil }
        guard errno == EINPROGRESS else { return Self.systemError(errno) }
        try wait(for: Int16(POLLOUT), what)
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length) == 0 else {
            return Self.systemError(errno)
        }
        return error == 0 ? nil : Self.systemError(error)
    }

    /// Sends all of `bytes`.
    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            try Self.check(cancellation, deadline, timeout, "sending the request to \(peer)")
            let sent = bytes.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                #if canImport(Glibc)
                return Glibc.send(descriptor, base + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                #else
                return Darwin.send(descriptor, base + offset, raw.count - offset, 0)
                #endif
            }
            if sent > 0 {
                offset += sent
                continue
            }
            let code = errno
            if sent < 0 && (code == EAGAIN || code == EWOULDBLOCK) {
                try wait(for: Int16(POLLOUT), "sending the request to \(peer)")
            } else if sent < 0 && code == EINTR {
                continue
            } else {
                throw OCSPTransportError(.unreachable, "the connection to \(peer) failed while sending the request: \(sent < 0 ? Self.systemError(code) : "nothing could be sent")")
            }
        }
    }

    /// Receives up to `buffer.count` bytes into `buffer` once some are available: the count, 0 at
    /// the end of the stream.
    func receive(into buffer: inout [UInt8]) throws -> Int {
        while true {
            try wait(for: Int16(POLLIN), "waiting for the response from \(peer)")
            let count = buffer.withUnsafeMutableBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return recv(descriptor, base, raw.count, 0)
            }
            if count >= 0 { return count }
            let code = errno
            if code == EAGAIN || code == EWOULDBLOCK || code == EINTR { continue }
            throw OCSPTransportError(.unreachable, "the connection to \(peer) failed while reading the response: \(Self.systemError(code))")
        }
    }

    /// Waits until the socket is ready for `events` (or has an error or hang-up to report), in
    /// slices of at most ``waitSlice``.
    private func wait(for events: Int16, _ what: String) throws {
        while true {
            try Self.check(cancellation, deadline, timeout, what)
            let remaining = deadline - ContinuousClock.now
            let slice = min(remaining, Self.waitSlice)
            // Rounded up, so that a wait never ends just before the deadline and spins.
            let milliseconds = Int32(min(100, max(1, (slice.inSeconds * 1000).rounded(.up))))
            var entry = pollfd(fd: descriptor, events: events, revents: 0)
            let ready = poll(&entry, 1, milliseconds)
            if ready > 0 { return }
            if ready < 0 && errno != EINTR {
                throw OCSPTransportError(.unreachable, "waiting on the connection to \(peer) failed: \(Self.systemError(errno))")
            }
        }
    }

    /// Throws `CancellationError` once cancelled, `URLError(.timedOut)` once `deadline` has passed.
    private static func check(_ cancellation: CancellationFlag, _ deadline: ContinuousClock.Instant, _ timeout: Duration, _ what: String) throws {
        if cancellation.isCancelled { throw CancellationError() }
        if ContinuousClock.now >= deadline {
            throw URLError(.timedOut, userInfo: [NSLocalizedDescriptionKey: "no response within \(timeout.inSeconds) s (timed out \(what))"])
        }
    }

    private static func systemConnect(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
        #if canImport(Glibc)
        Glibc.connect(descriptor, address, length)
        #else
        Darwin.connect(descriptor, address, length)
        #endif
    }

    /// Whether `host` is an IPv4 or IPv6 address (IPv6 possibly with a zone), not a name.
    private static func isAddressLiteral(_ host: String) -> Bool {
        if host.contains(":") { return true }
        var address = in_addr()
        return inet_pton(AF_INET, host, &address) == 1
    }

    /// The numeric address of `address`, for messages.
    private static func numericHost(of address: addrinfo) -> String {
        guard let socketAddress = address.ai_addr else { return "?" }
        var buffer = [CChar](repeating: 0, count: 128)
        let status = buffer.withUnsafeMutableBufferPointer { text in
            getnameinfo(socketAddress, address.ai_addrlen, text.baseAddress, socklen_t(text.count), nil, 0, NI_NUMERICHOST)
        }
        guard status == 0 else { return "?" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The text of the system error `code`.
    static func systemError(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}
