import Foundation

/// A small HTTP/1.1 server on 127.0.0.1 (or ::1) on POSIX sockets: the one loopback server behind
/// every fake of the repository (the Testing product's OCSP responder, the fake App Store, the
/// library tests' misbehaving OCSP servers).
///
/// It listens on a port the kernel chooses, serves each connection on a thread of its own (one
/// request per connection: every answer carries `Connection: close`), and answers what its
/// handler says. Threads wait in `poll` (no busy loop) and every wait also watches a wake pipe, so
/// ``stop()`` ends the listener and every connection at once, then waits until every thread is
/// gone. A connection that sends nothing for 30 seconds is closed.
package final class LoopbackHTTPServer: @unchecked Sendable {
    /// What the server does with a request.
    package enum Reply: Sendable {
        /// Answers with `status`, the header fields and the body (`Content-Length` and
        /// `Connection: close` are added).
        case respond(status: Int, headers: [(name: String, value: String)], body: Data)
        /// Closes the connection without answering.
        case closeWithoutAnswer
        /// Keeps the connection open without answering, until the client hangs up or the server
        /// stops.
        case stall
        /// Sends `bytes` exactly as given (status line, header fields and body, well-formed or
        /// not), then closes the connection: for tests of clients against broken or hostile servers.
        case raw(Data)
    }

    /// Answers one request (called on the connection's thread).
    package typealias Handler = @Sendable (LoopbackHTTPRequest) -> Reply

    /// The port it listens on, on 127.0.0.1 (or ::1).
    package let port: UInt16
    private let listener: Int32
    private let wake: (read: Int32, write: Int32)
    private let maximumBodyLength: Int
    private let handler: Handler

    // Guarded by `lock`.
    private let lock = NSLock()
    private var threads = 0
    private var stopping = false
    private var closed = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// The longest a connection may stay silent while its request is read.
    static let idleTimeoutMilliseconds: Int32 = 30_000
    /// The longest request head read.
    static let maximumHeadLength = 16_384

    private init(port: UInt16, listener: Int32, wake: (read: Int32, write: Int32), maximumBodyLength: Int, handler: @escaping Handler) {
        self.port = port
        self.listener = listener
        self.wake = wake
        self.maximumBodyLength = maximumBodyLength
        self.handler = handler
    }

    /// Starts listening on 127.0.0.1 (or ::1) and serving.
    ///
    /// - Parameters:
    ///   - port: The port to listen on; 0 (the default) lets the kernel choose one (read it from
    ///     ``port``). A fixed port is for servers whose URL is written before they start.
    ///   - ipv6: Whether to listen on ::1 instead of 127.0.0.1 (see ``canListenOnIPv6Loopback``).
    ///   - maximumBodyLength: The longest request body read; a longer one is answered 413.
    ///   - handler: What to answer.
    /// - Throws: ``AppStoreTestingError`` (`socketFailure`) with the system's words.
    package static func start(port: UInt16 = 0, ipv6: Bool = false, maximumBodyLength: Int, handler: @escaping Handler) throws(AppStoreTestingError) -> LoopbackHTTPServer {
        let wake = try LoopbackSocket.pipe()
        let listening: (descriptor: Int32, port: UInt16)
        do {
            listening = try LoopbackSocket.listenOnLoopback(port: port, ipv6: ipv6)
        } catch {
            LoopbackSocket.close(wake.read)
            LoopbackSocket.close(wake.write)
            throw error
        }
        let server = LoopbackHTTPServer(port: listening.port, listener: listening.descriptor, wake: wake,
                                        maximumBodyLength: maximumBodyLength, handler: handler)
        server.spawn { $0.acceptLoop() }
        return server
    }

    /// Whether a server can listen on ::1 here (IPv6 may be off in a container).
    package static let canListenOnIPv6Loopback: Bool = {
        guard let listening = try? LoopbackSocket.listenOnLoopback(ipv6: true) else { return false }
        LoopbackSocket.close(listening.descriptor)
        return true
    }()

    /// Stops: no new connection is accepted, open connections are closed unanswered, and it
    /// returns once every thread of the server has ended. Calling it again does nothing more.
    package func stop() async {
        let first = lock.withLock { () -> Bool in
            defer { stopping = true }
            return !stopping
        }
        if first { LoopbackSocket.signal(wake.write) }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = lock.withLock { () -> Bool in
                if threads == 0 { return true }
                waiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
        let closeNow = lock.withLock { () -> Bool in
            defer { closed = true }
            return !closed
        }
        if closeNow {
            LoopbackSocket.close(listener)
            LoopbackSocket.close(wake.read)
            LoopbackSocket.close(wake.write)
        }
    }

    /// Runs `body` on a new thread, counted until it returns.
    private func spawn(_ body: @escaping @Sendable (LoopbackHTTPServer) -> Void) {
        lock.withLock { threads += 1 }
        let thread = Thread { [self] in
            body(self)
            let resumed = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
                threads -= 1
                guard threads == 0 else { return [] }
                defer { waiters = [] }
                return waiters
            }
            for waiter in resumed { waiter.resume() }
        }
        thread.name = "LoopbackHTTPServer \(port)"
        thread.start()
    }

    private var isStopping: Bool { lock.withLock { stopping } }

    private func acceptLoop() {
        while LoopbackSocket.waitReadable(listener, wake: wake.read, milliseconds: -1) {
            guard !isStopping else { return }
            guard let connection = LoopbackSocket.accept(listener) else { continue }
            spawn { $0.serve(connection) }
        }
    }

    /// Reads one request from `connection`, answers it, and closes it.
    private func serve(_ connection: Int32) {
        defer { LoopbackSocket.close(connection) }
        let reply: Reply
        switch read(connection) {
        case .none:
            return
        case .some(.failure(let refusal)):
            reply = .respond(status: refusal.status, headers: [("Content-Type", "text/plain; charset=utf-8")], body: Data((refusal.message + "\n").utf8))
        case .some(.success(let request)):
            reply = handler(request)
        }
        switch reply {
        case .respond(let status, let headers, let body):
            var head = "HTTP/1.1 \(status) \(Self.reasonPhrase(status))\r\n"
            for (name, value) in headers where name.caseInsensitiveCompare("Content-Length") != .orderedSame && name.caseInsensitiveCompare("Connection") != .orderedSame {
                head += "\(name): \(value)\r\n"
            }
            head += "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
            _ = LoopbackSocket.send(connection, Array(head.utf8) + Array(body))
        case .raw(let bytes):
            _ = LoopbackSocket.send(connection, Array(bytes))
        case .closeWithoutAnswer:
            LoopbackSocket.shutdownBoth(connection)
        case .stall:
            // Until the client hangs up (readable at the end of the stream) or the server stops.
            var scratch = [UInt8](repeating: 0, count: 4096)
            while LoopbackSocket.waitReadable(connection, wake: wake.read, milliseconds: -1) {
                let count = scratch.withUnsafeMutableBytes { LoopbackSocket.receive(connection, into: $0) }
                if count <= 0 { return }
            }
        }
    }

    /// The request read from `connection`, a refusal to answer, or `nil` when the client went
    /// silent or away, or the server is stopping.
    private func read(_ connection: Int32) -> Result<LoopbackHTTPRequest, LoopbackHTTPRequest.Refusal>? {
        var buffer: [UInt8] = []
        var scratch = [UInt8](repeating: 0, count: 16_384)
        var parsed: (method: String, target: String, version: String, headers: [(name: String, value: String)], bodyLength: Int)?
        var bodyStart = 0
        while true {
            if parsed == nil, let end = Self.headEnd(in: buffer) {
                do {
                    parsed = try LoopbackHTTPRequest.parseHead(Array(buffer[..<end]))
                } catch {
                    return .failure(error)
                }
                bodyStart = end + 4
                if let length = parsed?.bodyLength, length > maximumBodyLength {
                    return .failure(.init(status: 413, message: "the body is \(length) bytes, more than the \(maximumBodyLength) this server reads"))
                }
            }
            if let parsed, buffer.count - bodyStart >= parsed.bodyLength {
                let body = Data(buffer[bodyStart..<(bodyStart + parsed.bodyLength)])
                return .success(LoopbackHTTPRequest(method: parsed.method, target: parsed.target, version: parsed.version, headers: parsed.headers, body: body))
            }
            if parsed == nil, buffer.count > Self.maximumHeadLength {
                return .failure(.init(status: 431, message: "the request head is longer than \(Self.maximumHeadLength) bytes"))
            }
            guard LoopbackSocket.waitReadable(connection, wake: wake.read, milliseconds: Self.idleTimeoutMilliseconds) else { return nil }
            let count = scratch.withUnsafeMutableBytes { LoopbackSocket.receive(connection, into: $0) }
            guard count > 0 else { return nil }
            buffer += scratch[..<count]
        }
    }

    /// The index of the blank line (`\r\n\r\n`) ending the head, if it has arrived.
    private static func headEnd(in buffer: [UInt8]) -> Int? {
        guard buffer.count >= 4 else { return nil }
        for index in 0...(buffer.count - 4) where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
            return index
        }
        return nil
    }

    /// The reason phrase of the statuses the fakes answer.
    static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 202: "Accepted"
        case 302: "Found"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 409: "Conflict"
        case 411: "Length Required"
        case 413: "Content Too Large"
        case 415: "Unsupported Media Type"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: "Status \(status)"
        }
    }
}
