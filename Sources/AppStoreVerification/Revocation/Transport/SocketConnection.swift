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

    /// Resolves `host` (see ``SocketAddress/resolve(host:port:)``) and connects to one of its
    /// addresses (see ``connect(to:peer:deadline:timeout:cancellation:)``).
    static func connect(host: String, port: UInt16, deadline: ContinuousClock.Instant, timeout: Duration, cancellation: CancellationFlag) throws -> SocketConnection {
        let peer = "\(host.contains(":") ? "[\(host)]" : host) port \(port)"
        try check(cancellation, deadline, timeout, "before connecting to \(peer)")
        return try connect(to: SocketAddress.resolve(host: host, port: port), peer: peer, deadline: deadline, timeout: timeout, cancellation: cancellation)
    }

    /// Connects to each of `addresses` in turn until one accepts. An attempt with more addresses
    /// after it may take at most half of the time left before `deadline`, so that an address whose
    /// packets are silently dropped (an IPv6 route a firewall black-holes, say) leaves time for the
    /// next one; the last attempt may take all of it.
    static func connect(to addresses: [SocketAddress], peer: String, deadline: ContinuousClock.Instant, timeout: Duration, cancellation: CancellationFlag) throws -> SocketConnection {
        var failures: [String] = []
        for (index, var address) in addresses.enumerated() {
            try check(cancellation, deadline, timeout, "connecting to \(peer)")
            #if canImport(Glibc)
            // glibc: SOCK_STREAM and SOCK_CLOEXEC are cases of the C enum __socket_type.
            let descriptor = socket(address.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), address.socketProtocol)
            #elseif canImport(Musl)
            // musl: Int32 macros.
            let descriptor = socket(address.family, SOCK_STREAM | SOCK_CLOEXEC, address.socketProtocol)
            #else
            // Darwin has no SOCK_CLOEXEC: configure() sets FD_CLOEXEC.
            let descriptor = socket(address.family, SOCK_STREAM, address.socketProtocol)
            #endif
            guard descriptor >= 0 else {
                failures.append("\(address.text): \(systemError(errno))")
                continue
            }
            // Owned from here on: closed when released, on every path.
            let connection = SocketConnection(descriptor: descriptor, peer: peer, deadline: deadline, timeout: timeout, cancellation: cancellation)
            if let problem = connection.configure() {
                failures.append("\(address.text): \(problem)")
                continue
            }
            let now = ContinuousClock.now
            let attemptDeadline = index == addresses.count - 1 ? deadline : now + (deadline - now) / 2
            if let problem = try connection.connect(to: &address, what: "connecting to \(peer)", until: attemptDeadline) {
                failures.append("\(address.text): \(problem)")
                continue
            }
            return connection
        }
        throw OCSPTransportError(.unreachable, "no connection could be made to \(peer) (\(failures.joined(separator: "; ")))")
    }

    /// Non-blocking, close-on-exec, and no SIGPIPE; a message when it fails. On Linux (glibc and
    /// musl) the socket is created close-on-exec and ``send(_:)`` passes `MSG_NOSIGNAL`; Darwin has
    /// neither, so close-on-exec is set here and SIGPIPE is turned off with `SO_NOSIGPIPE`.
    private func configure() -> String? {
        let flags = fcntl(descriptor, F_GETFL, 0)
        guard flags >= 0, fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) == 0 else {
            return "cannot make the socket non-blocking: \(Self.systemError(errno))"
        }
        #if canImport(Darwin)
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        var on: Int32 = 1
        guard setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
            return "cannot set SO_NOSIGPIPE: \(Self.systemError(errno))"
        }
        #endif
        return nil
    }

    /// Connects to `address`, waiting for the handshake until `attemptDeadline` at most; a message
    /// when the peer refuses, cannot be reached or does not answer by then, and throws when the
    /// request's own deadline passes or it is cancelled.
    private func connect(to address: inout SocketAddress, what: String, until attemptDeadline: ContinuousClock.Instant) throws -> String? {
        var result: Int32
        repeat {
            result = address.withSocketAddress { Self.systemConnect(descriptor, $0, $1) }
        } while result != 0 && errno == EINTR
        if result == 0 { return nil }
        guard errno == EINPROGRESS else { return Self.systemError(errno) }
        guard try wait(for: Int16(POLLOUT), what, until: attemptDeadline) else {
            return "no answer to the connection within its share of the timeout (half of what was left), so the next address is tried"
        }
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
                // Module-qualified: `send` alone is this method.
                #if canImport(Glibc)
                // glibc: MSG_NOSIGNAL is a case of an anonymous C enum, imported as Int.
                return Glibc.send(descriptor, base + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                #elseif canImport(Musl)
                return Musl.send(descriptor, base + offset, raw.count - offset, MSG_NOSIGNAL)
                #else
                // Darwin has no MSG_NOSIGNAL: configure() set SO_NOSIGPIPE.
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
    /// slices of at most ``waitSlice``: true then; false when `limit`, earlier than the request's
    /// deadline, passes first. Throws at the deadline and on cancellation.
    @discardableResult
    private func wait(for events: Int16, _ what: String, until limit: ContinuousClock.Instant? = nil) throws -> Bool {
        let end = min(limit ?? deadline, deadline)
        while true {
            try Self.check(cancellation, deadline, timeout, what)
            let now = ContinuousClock.now
            if end < deadline && now >= end { return false }
            let remaining = end - now
            let slice = min(remaining, Self.waitSlice)
            // Rounded up, so that a wait never ends just before the deadline and spins.
            let milliseconds = Int32(min(100, max(1, (slice.inSeconds * 1000).rounded(.up))))
            var entry = pollfd(fd: descriptor, events: events, revents: 0)
            let ready = poll(&entry, 1, milliseconds)
            if ready > 0 { return true }
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
        #elseif canImport(Musl)
        Musl.connect(descriptor, address, length)
        #else
        Darwin.connect(descriptor, address, length)
        #endif
    }

    /// The text of the system error `code`. Called on several threads at once.
    static func systemError(_ code: Int32) -> String {
        #if canImport(Glibc)
        // glibc's strerror is thread-safe (since 2.32); its strerror_r is the XSI one or the GNU
        // one (returning a `char *`) depending on _GNU_SOURCE, so it is not used here.
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
        #else
        // Darwin's strerror may write into one static buffer; the XSI strerror_r (Darwin, musl)
        // returns 0 once the text is in `buffer`.
        var buffer = [CChar](repeating: 0, count: 256)
        guard strerror_r(code, &buffer, buffer.count) == 0 else { return "error \(code)" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #endif
    }
}
