import Foundation
import NIOConcurrencyHelpers
import ReceiptServerCore
import Testing

/// One client address cannot take every connection: its connections over
/// ``ConnectionLimits/maximumConnectionsPerAddress`` are closed at once, so another address is
/// served while it holds the rest (issue 39, finding 1). Another loopback address (`127.0.0.2`) is
/// another client to the server.
@Suite("Fair connection use: a cap per client address", .timeLimit(.minutes(3)))
struct FairConnectionTests {
    @Test("1,200 half-open connections from one address: the address keeps 64, another address is answered while they are held")
    func oneAddressCannotHoldTheServer() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // The header timeout is long: only the per-address cap can free the server here.
        let limits = ConnectionLimits(headerTimeout: .seconds(3600))
        #expect(limits.maximumConnectionsPerAddress == 64, "the documented default")
        #expect(limits.headerTimeout == .seconds(3600) && ConnectionLimits().headerTimeout == .seconds(10), "the shorter default header timeout")
        let server = try await TestServer.start(databasePath: directory.databasePath, connectionLimits: limits)
        let attackers = 1200
        let closedByServer = AsyncStream<Void>.makeStream()
        var connections: [RawConnection] = []
        try await server.stopping {
            for _ in 0..<attackers {
                let connection = try await within(.seconds(60), "a connection from 127.0.0.2") {
                    try await RawConnection.connect(port: server.port, from: "127.0.0.2")
                }
                connection.whenClosed { closedByServer.continuation.yield() }
                // A partial request line, and nothing more.
                try? await connection.send("GET /heal")
                connections.append(connection)
            }
            // Every connection over the cap is closed by the server, unanswered.
            try await within(.seconds(60), "the server closing the connections over the cap") {
                var closed = 0
                for await _ in closedByServer.stream {
                    closed += 1
                    if closed == attackers - 64 { return }
                }
            }
            #expect(connections.filter { !$0.isClosed }.count == 64)
            #expect(connections.allSatisfy { $0.received.isEmpty })
            #expect(server.metric(#"receipt_server_connections_refused_total{reason="perAddress"}"#) == Double(attackers - 64))
            // Another address (127.0.0.1, AsyncHTTPClient's) is answered while the 64 are held.
            let clock = ContinuousClock()
            let start = clock.now
            let health = try await server.request(.GET, "/health", as: .anonymous)
            print("FairConnectionTests: /health from 127.0.0.1 answered in \(clock.now - start) while 127.0.0.2 held 64 half-open connections")
            #expect(health.status == 200)
            #expect(connections.filter { !$0.isClosed }.count == 64, "the held connections are still open: no timeout freed the server")
            for connection in connections { await connection.close() }
        }
    }

    @Test("A trusted proxy's connections are not capped; its X-Forwarded-For names the client only when it is trusted")
    func trustedProxy() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var limits = ConnectionLimits(headerTimeout: .seconds(3600))
        limits.maximumConnectionsPerAddress = 2
        let throttle = AuthenticationThrottleLimits(freeFailures: 1, firstDelay: .seconds(3600))
        let server = try await TestServer.start(databasePath: directory.databasePath, connectionLimits: limits,
                                                trustedProxies: try TrustedProxies(["127.0.0.2"]), throttle: throttle)
        try await server.stopping {
            // Five connections at once from the proxy: all are served.
            var held: [RawConnection] = []
            for _ in 0..<5 {
                let connection = try await RawConnection.connect(port: server.port, from: "127.0.0.2")
                try await connection.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                held.append(connection)
            }
            for connection in held {
                let answer = try await within(.seconds(30), "the proxy's answer") { try await connection.waitUntilReceived(#""status":"ok"}"#) }
                #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer)")
            }
            // Through the proxy, wrong tokens count for the forwarded client, not for the proxy.
            let wrong = [("Authorization", "Bearer wrong-token-0123456789abcdef-0123"), ("X-Forwarded-For", "198.51.100.7")]
            let path = "/customers/7e3fb20b-4cdb-47cc-936d-99d65f608138/entitlements"
            #expect(try await RawConnection.exchange(port: server.port, from: "127.0.0.2", "GET", path, headers: wrong).status == 401)
            #expect(try await RawConnection.exchange(port: server.port, from: "127.0.0.2", "GET", path, headers: wrong).status == 401)
            #expect(try await RawConnection.exchange(port: server.port, from: "127.0.0.2", "GET", path, headers: wrong).status == 429)
            let otherClient = [("Authorization", "Bearer \(TestServer.backendToken)"), ("X-Forwarded-For", "198.51.100.7, 203.0.113.9")]
            #expect(try await RawConnection.exchange(port: server.port, from: "127.0.0.2", "GET", path, headers: otherClient).status == 200)
            // From an untrusted address the header is ignored: 127.0.0.3 cannot pose as another client.
            let posing = [("Authorization", "Bearer wrong-token-0123456789abcdef-0123"), ("X-Forwarded-For", "192.0.2.1")]
            #expect(try await RawConnection.exchange(port: server.port, from: "127.0.0.3", "GET", path, headers: posing).status == 401)
            let posingAgain = [("Authorization", "Bearer wrong-token-0123456789abcdef-0123"), ("X-Forwarded-For", "192.0.2.2")]
            #expect(try await RawConnection.exchange(port: server.port, from: "127.0.0.3", "GET", path, headers: posingAgain).status == 401)
            #expect(try await RawConnection.exchange(port: server.port, from: "127.0.0.3", "GET", path, headers: posingAgain).status == 429)
            for connection in held { await connection.close() }
        }
    }
}
