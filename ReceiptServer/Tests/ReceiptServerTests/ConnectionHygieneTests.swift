import Foundation
import ReceiptServerCore
import Testing

/// Slow and stalled clients over a raw TCP connection on 127.0.0.1: each limit closes them, and a
/// stalled upload does not hold the shutdown. The limits are short (1 s) so the tests are quick;
/// every wait is bounded by a generous `within` so a broken server fails instead of hanging.
@Suite("Connection timeouts and limits with stalling clients", .timeLimit(.minutes(2)))
struct ConnectionHygieneTests {
    static let short = ConnectionLimits(headerTimeout: .seconds(1), bodyTimeout: .seconds(1), idleTimeout: .seconds(1),
                                        maximumConnections: 100, shutdownGracePeriod: .seconds(1))

    /// `short` with the header timeout long, for tests where the headers are sent at once and
    /// another limit is under test (so a loaded machine cannot make the header timeout fire first).
    static var headersAtOnce: ConnectionLimits {
        var limits = short
        limits.headerTimeout = .seconds(60)
        return limits
    }

    @Test("A client that never finishes its headers is disconnected, unanswered")
    func slowHeaders() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try await TestServer.start(databasePath: directory.databasePath, connectionLimits: Self.short)
        try await server.stopping {
            let connection = try await RawConnection.connect(port: server.port)
            // On a loaded machine the header timeout may close the connection before these bytes
            // go out: the client is disconnected either way, which is what is under test.
            try? await connection.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            try await within(.seconds(30), "closing a slow-header connection") { try await connection.waitUntilClosed() }
            #expect(connection.received.isEmpty, "\(connection.received)")
            #expect(server.metric(#"receipt_server_connection_timeouts_total{timeout="header"}"#) == 1)
        }
    }

    @Test("A request whose body stalls is disconnected")
    func stalledBody() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try await TestServer.start(databasePath: directory.databasePath, connectionLimits: Self.headersAtOnce)
        try await server.stopping {
            let connection = try await RawConnection.connect(port: server.port)
            try await connection.send("POST /notifications HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"signedPayload\": \"ey")
            try await within(.seconds(30), "closing a stalled-body connection") { try await connection.waitUntilClosed() }
            #expect(server.metric(#"receipt_server_connection_timeouts_total{timeout="body"}"#) == 1)
            #expect(try await server.store.count() == 0)
        }
    }

    @Test("An idle kept-alive connection is closed after its answer")
    func idleKeepAlive() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try await TestServer.start(databasePath: directory.databasePath, connectionLimits: Self.headersAtOnce)
        try await server.stopping {
            let connection = try await RawConnection.connect(port: server.port)
            try await connection.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let answer = try await within(.seconds(30), "the health answer") { try await connection.waitUntilReceived(#""status":"ok"}"#) }
            #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer)")
            try await within(.seconds(30), "closing the idle connection") { try await connection.waitUntilClosed() }
            #expect(server.metric(#"receipt_server_connection_timeouts_total{timeout="idle"}"#) == 1)
        }
    }

    @Test("At the connection limit a new client is served only once a connection closes")
    func connectionLimit() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var limits = Self.short
        limits.maximumConnections = 2
        // Long enough that both stalled connections are accepted before either times out, even on
        // a loaded machine (with 2 s, the first could time out before the second was accepted).
        limits.headerTimeout = .seconds(8)
        let server = try await TestServer.start(databasePath: directory.databasePath, connectionLimits: limits)
        try await server.stopping {
            let first = try await RawConnection.connect(port: server.port)
            let second = try await RawConnection.connect(port: server.port)
            try await server.waitUntilMetrics("the server accepting two connections", limit: .seconds(30)) { $0.metric("receipt_server_open_connections") == 2 }
            // The third connects (the kernel's backlog) and sends a whole request at once.
            let third = try await RawConnection.connect(port: server.port)
            try await third.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let answer = try await within(.seconds(30), "the third client's answer") { try await third.waitUntilReceived(#""status":"ok"}"#) }
            // It was answered, but only after a slot freed: the server had already closed one of
            // the stalled two for its header timeout (counted before the close, so before the
            // third was accepted). Without the limit it would be answered at once, with no
            // timeout counted yet (the stalled two have 8 s).
            #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer)")
            #expect(server.metric(#"receipt_server_connection_timeouts_total{timeout="header"}"#) ?? 0 >= 1)
            let closes = ChangeSignal()
            first.whenClosed { closes.changed() }
            second.whenClosed { closes.changed() }
            try await within(.seconds(30), "a stalled connection seen closed") { await closes.waitUntil { first.isClosed || second.isClosed } }
            await third.close()
        }
    }

    @Test("A body announced over the limit is answered 413 before it is sent")
    func oversizedBody() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // The body never comes: a long body timeout too, so that on a loaded machine the 1 s one
        // cannot close the connection before the server answered (the 413 is what is under test).
        var limits = Self.headersAtOnce
        limits.bodyTimeout = .seconds(60)
        let server = try await TestServer.start(databasePath: directory.databasePath, maximumBodyBytes: 1024, connectionLimits: limits)
        try await server.stopping {
            let connection = try await RawConnection.connect(port: server.port)
            try await connection.send("POST /transactions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n")
            let answer = try await within(.seconds(30), "the 413 answer") { try await connection.waitUntilReceived("bodyTooLarge") }
            #expect(answer.hasPrefix("HTTP/1.1 413"), "\(answer)")
            #expect(answer.contains("1000000 bytes"))
            await connection.close()
            #expect(try await server.store.count() == 0)
        }
    }

    @Test("A connection answered 413 before its body, then sent the body, still gets the idle timeout")
    func idleAfterEarlyAnswer() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var limits = Self.headersAtOnce
        limits.bodyTimeout = .seconds(600)
        let server = try await TestServer.start(databasePath: directory.databasePath, maximumBodyBytes: 1024, connectionLimits: limits)
        try await server.stopping {
            let connection = try await RawConnection.connect(port: server.port)
            try await connection.send("POST /transactions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2000\r\n\r\n")
            let answer = try await within(.seconds(30), "the 413 answer") { try await connection.waitUntilReceived("bodyTooLarge") }
            #expect(answer.hasPrefix("HTTP/1.1 413"), "\(answer)")
            try await connection.send(String(repeating: "x", count: 2000))
            try await within(.seconds(30), "closing the idle connection") { try await connection.waitUntilClosed() }
            #expect(server.metric(#"receipt_server_connection_timeouts_total{timeout="idle"}"#) == 1)
            #expect(server.metric(#"receipt_server_connection_timeouts_total{timeout="body"}"#) == nil)
        }
    }

    @Test("Graceful shutdown completes while an upload is stalled, and the upload's connection is closed")
    func shutdownWithStalledUpload() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // Body and header timeouts far beyond the test: only the shutdown grace period can end the upload.
        let limits = ConnectionLimits(headerTimeout: .seconds(600), bodyTimeout: .seconds(600), idleTimeout: .seconds(600),
                                      maximumConnections: 100, shutdownGracePeriod: .seconds(1))
        let server = try await TestServer.start(databasePath: directory.databasePath, connectionLimits: limits)
        let connection = try await RawConnection.connect(port: server.port)
        try await connection.send("POST /notifications HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 4000\r\n\r\n{\"signedPayload\": \"ey")
        try await server.waitUntilMetrics("the server accepting the upload", limit: .seconds(30)) { $0.metric("receipt_server_open_connections") == 1 }
        // A served request on another connection, so the upload's headers are surely in by now
        // (connections are read concurrently; this only makes the stalled request the common case).
        let health = try await server.request(.GET, "/health")
        #expect(health.status == 200)
        try await within(.seconds(60), "graceful shutdown with a stalled upload") { try await server.stop() }
        try await within(.seconds(30), "closing the stalled upload") { try await connection.waitUntilClosed() }
        #expect(connection.isClosed)
    }
}
