import AppStoreVerification
import AppStoreVerificationTestSupport
import AppStoreVerificationTesting
import AsyncHTTPClient
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
@testable import ReceiptServerCore

/// Starting a server with connection limits, an access token or reconciliation, and talking to it
/// with headers.
extension TestServer {
    /// Starts a server on `databasePath` for bundle `com.example.app`, Sandbox, trusting `root` (or
    /// `roots`), with its clock at `now` and the test backend's access token unless `access` says
    /// otherwise, live or on the in-process router (`testing`).
    static func start(
        databasePath: String,
        root: URL = TestPaths.testVector("pki/root.der"),
        roots: [TrustedRoot]? = nil,
        now: Date = Date(),
        maximumBodyBytes: Int = 64 * 1024,
        busyTimeoutMilliseconds: Int = 10_000,
        nonRenewingDurations: [String: TimeInterval] = [:],
        connectionLimits: ConnectionLimits = ConnectionLimits(),
        access: AccessControl = TestServer.backendAccess,
        trustedProxies: TrustedProxies = TrustedProxies(),
        throttle: AuthenticationThrottleLimits = AuthenticationThrottleLimits(),
        metricsExposure: MetricsExposure = MetricsExposure(),
        onMetricsRunning: @escaping @Sendable (Int) async -> Void = { _ in },
        reconcile: ReconcileConfiguration? = nil,
        backfill: BackfillConfiguration? = nil,
        refundAnswers: RefundAnswerConfiguration? = nil,
        webhooks: WebhookConfiguration? = nil,
        onBackfill: @escaping @Sendable (BackfillReport) async -> Void = { _ in },
        logger: Logger? = nil,
        testing: Testing = .live
    ) async throws -> TestServer {
        var defaultLogger = Logger(label: "ReceiptServerTests")
        defaultLogger.logLevel = .warning
        let logger = logger ?? defaultLogger
        let trusted = try roots ?? TrustedRoot.roots(contentsOf: root)
        let configuration = ServerConfiguration(
            host: "127.0.0.1", port: 0, databasePath: databasePath,
            verifier: .init(trustedRoots: trusted, bundleId: "com.example.app", environment: .sandbox),
            maximumBodyBytes: maximumBodyBytes, busyTimeoutMilliseconds: busyTimeoutMilliseconds,
            nonRenewingDurations: nonRenewingDurations, clock: .manual(ManualClock(date: now)))
        return try await start(logger: logger, bearerToken: access.bearerToken, testing: testing) { onServerRunning in
            try await buildReceiptServer(ReceiptServerConfiguration(
                server: configuration, connectionLimits: connectionLimits, access: access,
                trustedProxies: trustedProxies, throttle: throttle, metricsExposure: metricsExposure,
                reconcile: reconcile, backfill: backfill, webhooks: webhooks, refundAnswers: refundAnswers, logger: logger,
                onServerRunning: onServerRunning, onMetricsRunning: onMetricsRunning, onBackfill: onBackfill))
        }
    }

    /// The value of one metric series in `/metrics`' text (`name{labels}`), or `nil` when absent.
    func metric(_ series: String) -> Double? {
        for line in metrics.exposition().split(separator: "\n") where line.hasPrefix(series + " ") {
            return Double(line.dropFirst(series.count + 1))
        }
        return nil
    }

    /// Sends with `send` again while the answer is a retryable 503, as Apple retries a notification
    /// (each attempt waits up to the busy timeout; all of them at most a minute): for a write that
    /// must succeed once a lock is gone, on a machine whose load may make one attempt miss its
    /// busy timeout.
    func retryingWhileUnavailable(_ send: @escaping @Sendable () async throws -> Answer) async throws -> Answer {
        try await within(.seconds(60), "a write answered other than 503") {
            while true {
                let answer = try await send()
                if answer.status != 503 { return answer }
            }
        }
    }

    /// Stops the server even when the test failed, then rethrows.
    func stopping<T>(_ body: () async throws -> T) async throws -> T {
        let value: T
        do {
            value = try await body()
        } catch {
            try? await stop()
            throw error
        }
        try await stop()
        return value
    }
}

/// A raw TCP connection to the server: sends bytes as a (slow) client would, and records what
/// comes back and when the server closes.
final class RawConnection: Sendable {
    private let channel: any Channel
    private let state: NIOLockedValueBox<(received: [UInt8], closed: Bool)>
    /// Signalled when bytes arrive and when the connection closes.
    private let changes: ChangeSignal

    private init(channel: any Channel, state: NIOLockedValueBox<(received: [UInt8], closed: Bool)>, changes: ChangeSignal) {
        self.channel = channel
        self.state = state
        self.changes = changes
    }

    /// Connects to 127.0.0.1:`port`, from `source` (another loopback address, such as
    /// `127.0.0.2`, is another client address to the server) or from the system's choice.
    static func connect(port: Int, from source: String? = nil) async throws -> RawConnection {
        let state = NIOLockedValueBox<(received: [UInt8], closed: Bool)>(([], false))
        let changes = ChangeSignal()
        var bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(Recorder(state: state, changes: changes))
                }
            }
        if let source {
            bootstrap = bootstrap.bind(to: try SocketAddress(ipAddress: source, port: 0))
        }
        let channel = try await bootstrap.connect(host: "127.0.0.1", port: port).get()
        return RawConnection(channel: channel, state: state, changes: changes)
    }

    /// Calls `onClose` once the connection is closed (by either side).
    func whenClosed(_ onClose: @escaping @Sendable () -> Void) {
        channel.closeFuture.whenComplete { _ in onClose() }
    }

    /// Sends one request with `Connection: close` from `source` and returns the whole answer (the
    /// server closes the connection after it).
    static func exchange(port: Int, from source: String?, _ method: String, _ path: String, headers: [(String, String)] = [],
                         body: String = "") async throws -> RawAnswer {
        let connection = try await connect(port: port, from: source)
        var text = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" { text += "Content-Length: \(body.utf8.count)\r\n" }
        text += "\r\n" + body
        try await connection.send(text)
        try await within(.seconds(30), "the answer to \(method) \(path)") { try await connection.waitUntilClosed() }
        return RawAnswer(connection.received)
    }

    /// Sends `text` (ASCII).
    func send(_ text: String) async throws {
        try await channel.writeAndFlush(ByteBuffer(string: text)).get()
    }

    /// Waits until the server closes the connection.
    func waitUntilClosed() async throws {
        try await channel.closeFuture.get()
    }

    /// Whether the connection is closed.
    var isClosed: Bool { state.withLockedValue { $0.closed } }

    /// Everything received so far, as text.
    var received: String { state.withLockedValue { String(decoding: $0.received, as: UTF8.self) } }

    /// Waits until the received text contains `marker` (or the connection closes), checking at
    /// each arrival.
    func waitUntilReceived(_ marker: String) async throws -> String {
        await changes.waitUntil { state.withLockedValue { String(decoding: $0.received, as: UTF8.self).contains(marker) || $0.closed } }
        return received
    }

    /// Closes the connection from the client's side.
    func close() async {
        try? await channel.close().get()
    }

    private final class Recorder: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        let state: NIOLockedValueBox<(received: [UInt8], closed: Bool)>
        let changes: ChangeSignal
        init(state: NIOLockedValueBox<(received: [UInt8], closed: Bool)>, changes: ChangeSignal) {
            self.state = state
            self.changes = changes
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let buffer = unwrapInboundIn(data)
            state.withLockedValue { $0.received += Array(buffer.readableBytesView) }
            changes.changed()
        }

        func channelInactive(context: ChannelHandlerContext) {
            state.withLockedValue { $0.closed = true }
            changes.changed()
            context.fireChannelInactive()
        }
    }
}

/// An HTTP/1.1 answer read off a raw connection.
struct RawAnswer: Sendable {
    /// The status code (0 when there was no status line).
    let status: Int
    /// The header lines, names lowercased.
    let headers: [(String, String)]
    /// The body.
    let body: String

    init(_ text: String) {
        let (head, body) = text.range(of: "\r\n\r\n").map { (String(text[..<$0.lowerBound]), String(text[$0.upperBound...])) } ?? (text, "")
        let lines = head.components(separatedBy: "\r\n")
        status = lines.first.flatMap { $0.split(separator: " ").dropFirst().first.flatMap { Int($0) } } ?? 0
        headers = lines.dropFirst().compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        self.body = body
    }

    /// The first value of header `name`.
    func header(_ name: String) -> String? { headers.first { $0.0 == name.lowercased() }?.1 }
}

/// Runs `operation`, failing with ``TestServerError`` if it does not finish within `limit`: a
/// bound so that a broken server fails the test instead of hanging it (not a timing assertion).
/// The operation runs in a task of its own, so a wait that ignores cancellation (a channel's
/// close future) cannot hold the test past the bound.
func within<T: Sendable>(_ limit: Duration, _ what: String, _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
    let pending = NIOLockedValueBox<CheckedContinuation<T, any Error>?>(nil)
    let finish: @Sendable (Result<T, any Error>) -> Void = { result in
        pending.withLockedValue { continuation in
            continuation?.resume(with: result)
            continuation = nil
        }
    }
    return try await withCheckedThrowingContinuation { continuation in
        pending.withLockedValue { $0 = continuation }
        let work = Task {
            do { finish(.success(try await operation())) } catch { finish(.failure(error)) }
        }
        Task {
            try? await Task.sleep(for: limit)
            work.cancel()
            finish(.failure(TestServerError("\(what) did not happen within \(limit)")))
        }
    }
}

extension TestServer {
    /// Returns once `condition` holds over the server's metrics (read it with ``metric(_:)``),
    /// checking it now and at each update the server announces (``ServerMetrics/waitUntil(_:)``);
    /// fails after `limit` (a bound for a broken server only).
    func waitUntilMetrics(_ what: String, limit: Duration = .seconds(60), _ condition: @escaping @Sendable (TestServer) -> Bool) async throws {
        try await within(limit, what) { try await self.metrics.waitUntil { _ in condition(self) } }
    }
}

/// A log handler that keeps every message and its metadata, to check what the server logs.
struct CapturingLogHandler: LogHandler {
    /// One logged line: level, message and metadata (merged with the logger's).
    struct Line: Sendable {
        let level: Logger.Level
        let message: String
        let metadata: [String: String]
    }

    let lines: NIOLockedValueBox<[Line]>
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info

    /// A logger at `level` whose every line is kept in the returned box.
    static func logger(level: Logger.Level) -> (Logger, NIOLockedValueBox<[Line]>) {
        let lines = NIOLockedValueBox<[Line]>([])
        var logger = Logger(label: "ReceiptServerTests") { _ in
            var handler = CapturingLogHandler(lines: lines)
            handler.logLevel = level
            return handler
        }
        logger.logLevel = level
        return (logger, lines)
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var merged = metadata
        event.metadata.map { merged.merge($0) { $1 } }
        let flat = merged.mapValues { "\($0)" }
        lines.withLockedValue { $0.append(Line(level: event.level, message: "\(event.message)", metadata: flat)) }
    }
}
