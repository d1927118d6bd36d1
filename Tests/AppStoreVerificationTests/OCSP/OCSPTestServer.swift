import AppStoreVerificationTesting
import Foundation

/// A misbehaving OCSP responder for the transport and verifier tests: the Testing product's
/// ``LoopbackHTTPServer`` (127.0.0.1, or ::1) answering every request the way it was told (a
/// status, a redirect, raw bytes, or never), with the requests it read kept for the assertions.
/// It stops when the test lets go of it.
final class OCSPTestServer: @unchecked Sendable {
    enum Behaviour: Sendable {
        /// Answers `status` with `body` (`Content-Type: application/ocsp-response`).
        case respond(status: Int, body: Data)
        /// Answers 302 Found with a `Location` header naming `location` (and no body).
        case redirect(location: String)
        /// Reads the request and never answers (until the client hangs up).
        case silent
        /// Sends `bytes` as they are (status line, headers and body, well-formed or not), then
        /// closes the connection.
        case raw(Data)
    }

    private let server: LoopbackHTTPServer
    private let recorder: Recorder

    /// The port it listens on.
    var port: UInt16 { server.port }

    /// Starts listening on `port` of 127.0.0.1 (of ::1 with `ipv6`); port 0 lets the kernel choose.
    init(port: UInt16 = 0, behaviour: Behaviour, ipv6: Bool = false) throws {
        let recorder = Recorder()
        let reply: LoopbackHTTPServer.Reply = switch behaviour {
        case .respond(let status, let body): .respond(status: status, headers: [("Content-Type", "application/ocsp-response")], body: body)
        case .redirect(let location): .respond(status: 302, headers: [("Location", location)], body: Data())
        case .silent: .stall
        case .raw(let bytes): .raw(bytes)
        }
        server = try LoopbackHTTPServer.start(port: port, ipv6: ipv6, maximumBodyLength: 1 << 20) { request in
            recorder.record(request)
            return reply
        }
        self.recorder = recorder
    }

    deinit {
        let server = self.server
        Task { await server.stop() }
    }

    /// Whether a server can listen on ::1 here (IPv6 may be off in a container).
    static var canListenOnIPv6Loopback: Bool { LoopbackHTTPServer.canListenOnIPv6Loopback }

    /// Stops listening and closes the connections it holds unanswered (a silent server's waiting
    /// requests then end at once instead of at their timeout).
    func stop() async {
        await server.stop()
    }

    /// How many requests arrived.
    var requestCount: Int { recorder.count }

    /// The head (request line and header lines, CRLF-separated, without the blank line) of the
    /// last request read, rebuilt from what the server parsed.
    var lastRequestHead: String {
        guard let request = recorder.last else { return "" }
        return (["\(request.method) \(request.target) \(request.version)"] + request.headers.map { "\($0.name): \($0.value)" })
            .joined(separator: "\r\n")
    }

    /// The body of the last request read.
    var lastRequestBody: Data { recorder.last?.body ?? Data() }

    /// Returns once the first request has arrived (at once if one has).
    func firstRequest() async {
        await recorder.firstRequest()
    }

    /// The requests read, and the tests waiting for the first one.
    private final class Recorder: @unchecked Sendable {
        private let lock = NSLock()
        private var requests: [LoopbackHTTPRequest] = []
        private var waiters: [CheckedContinuation<Void, Never>] = []

        func record(_ request: LoopbackHTTPRequest) {
            let resumed = lock.withLock {
                requests.append(request)
                defer { waiters = [] }
                return waiters
            }
            resumed.forEach { $0.resume() }
        }

        var count: Int { lock.withLock { requests.count } }
        var last: LoopbackHTTPRequest? { lock.withLock { requests.last } }

        func firstRequest() async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let arrived = lock.withLock {
                    if requests.isEmpty { waiters.append(continuation) }
                    return !requests.isEmpty
                }
                if arrived { continuation.resume() }
            }
        }
    }
}
