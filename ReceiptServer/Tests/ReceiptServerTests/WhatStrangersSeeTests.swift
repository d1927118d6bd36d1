import Foundation
import ReceiptServerCore
import Testing

/// What a caller without a token learns, and which requests the server takes (issue 39, finding 5):
/// `/metrics` behind a token or on its own listener, 415 for bodies that are not JSON, the console's
/// origin check by scheme, host and port, and `HEAD` wherever `GET` answers. (`/health`'s answer to
/// a stranger when the database fails is in ``CleanLogTests``.)
@Suite("What strangers see", .timeLimit(.minutes(2)))
struct WhatStrangersSeeTests {
    static let metricsToken = "7d1f3a9c5e2b4d6f8a0c1e3b5d7f9a2c"

    @Test("/metrics: 401 to strangers by default; the access token or the metrics token reads it")
    func metricsBehindToken() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try await TestServer.start(databasePath: directory.databasePath, metricsExposure: MetricsExposure(token: Self.metricsToken), testing: .router)
        try await server.stopping {
            let stranger = try await server.request(.GET, "/metrics", as: .anonymous)
            #expect(stranger.status == 401)
            #expect(!stranger.text.contains("receipt_server_"))
            #expect(try await server.request(.GET, "/metrics").status == 200)
            let scraped = try await server.request(.GET, "/metrics", headers: [("Authorization", "Bearer \(Self.metricsToken)")])
            #expect(scraped.status == 200)
            #expect(scraped.text.contains("receipt_server_requests_total"))
            // The metrics token opens nothing else.
            let entitlements = try await server.request(.GET, "/customers/7e3fb20b-4cdb-47cc-936d-99d65f608138/entitlements",
                                                        headers: [("Authorization", "Bearer \(Self.metricsToken)")])
            #expect(entitlements.status == 401)
        }
    }

    @Test("/metrics on a listener of its own: open there, 404 on the server's port")
    func metricsListener() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let server = try await TestServer.start(databasePath: directory.databasePath,
                                                metricsExposure: MetricsExposure(listener: .init(host: "127.0.0.1", port: 0)),
                                                onMetricsRunning: { port in continuation.yield(port); continuation.finish() })
        try await server.stopping {
            var iterator = ports.makeAsyncIterator()
            let metricsPort = try #require(await iterator.next())
            #expect(metricsPort > 0 && metricsPort != server.port)
            #expect(try await server.request(.GET, "/metrics").status == 404)
            let scraped = try await RawConnection.exchange(port: metricsPort, from: nil, "GET", "/metrics")
            #expect(scraped.status == 200)
            #expect(scraped.body.contains("receipt_server_requests_total"))
            #expect(try await RawConnection.exchange(port: metricsPort, from: nil, "GET", "/health").status == 404)
        }
    }

    @Test("The JSON routes answer 415 to a body of another content type, or of none; nothing is stored")
    func jsonOnly() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try await TestServer.start(databasePath: directory.databasePath, now: TestData.vectorsSignedDate.addingTimeInterval(3600))
        try await server.stopping {
            let body = String(decoding: try JSONSerialization.data(withJSONObject: ["signedTransaction": try TestData.jws("jws/transaction-valid.jws"),
                                                                                    "appAccountToken": "7e3fb20b-4cdb-47cc-936d-99d65f608138"]), as: UTF8.self)
            for contentType in ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"] {
                let answer = try await RawConnection.exchange(port: server.port, from: nil, "POST", "/transactions", headers: [("Content-Type", contentType)], body: body)
                #expect(answer.status == 415, "\(contentType): \(answer.body)")
                #expect(answer.body.contains("unsupportedMediaType"))
            }
            #expect(try await RawConnection.exchange(port: server.port, from: nil, "POST", "/transactions", body: body).status == 415)
            #expect(try await RawConnection.exchange(port: server.port, from: nil, "POST", "/notifications", headers: [("Content-Type", "text/plain")], body: "{}").status == 415)
            #expect(try await server.store.count() == 0)
            let json = try await RawConnection.exchange(port: server.port, from: nil, "POST", "/transactions",
                                                        headers: [("Content-Type", "application/json; charset=utf-8")], body: body)
            #expect(json.status == 200, "\(json.body)")
        }
    }

    @Test("The console's origin check compares scheme, host and port")
    func originSchemeHostPort() async throws {
        let fixture = try ConsoleFixture()
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try await fixture.startServer(databasePath: directory.databasePath)
        try await server.stopping {
            for origin in ["https://127.0.0.1:\(server.port)", "http://127.0.0.1:\(server.port + 1)", "http://127.0.0.1", "http://localhost:\(server.port)"] {
                try await ConsoleBrowser.using(port: server.port) { browser in
                    let page = try await browser.signIn(token: ConsoleFixture.token, headers: [("Origin", origin)])
                    #expect(page.status == 403, "\(origin)")
                    #expect(browser.cookies["receipt_console_session"] == nil, "\(origin)")
                }
            }
            try await ConsoleBrowser.using(port: server.port) { browser in
                let page = try await browser.signIn(token: ConsoleFixture.token, headers: [("Origin", "http://127.0.0.1:\(server.port)")])
                #expect(page.status == 303)
            }
            // Behind a proxy that terminated TLS the origin is https, on the default port.
            try await ConsoleBrowser.using(port: server.port) { browser in
                let headers = [("X-Forwarded-Proto", "https"), ("X-Forwarded-Host", "console.example"), ("Origin", "https://console.example")]
                let page = try await browser.signIn(token: ConsoleFixture.token, headers: headers)
                #expect(page.status == 303)
            }
            try await ConsoleBrowser.using(port: server.port) { browser in
                let headers = [("X-Forwarded-Proto", "https"), ("X-Forwarded-Host", "console.example"), ("Origin", "http://console.example")]
                let page = try await browser.signIn(token: ConsoleFixture.token, headers: headers)
                #expect(page.status == 403)
            }
        }
    }

    @Test("HEAD answers wherever GET does: the status and headers, no body")
    func head() async throws {
        let fixture = try ConsoleFixture()
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try await fixture.startServer(databasePath: directory.databasePath)
        try await server.stopping {
            for path in ["/health", "/console/sign-in", "/console/static/console.css"] {
                let get = try await RawConnection.exchange(port: server.port, from: nil, "GET", path)
                let head = try await RawConnection.exchange(port: server.port, from: nil, "HEAD", path)
                #expect(head.status == get.status && get.status == 200, "\(path): \(head.status)")
                #expect(head.body.isEmpty, "\(path): \(head.body)")
                #expect(head.header("Content-Type") == get.header("Content-Type"), "\(path)")
                #expect(head.header("Content-Length") == String(get.body.utf8.count), "\(path)")
            }
            let customer = try await RawConnection.exchange(port: server.port, from: nil, "HEAD", "/customers/\(ConsoleFixture.customer)/entitlements",
                                                            headers: [("Authorization", "Bearer \(ConsoleFixture.token)")])
            #expect(customer.status == 200 && customer.body.isEmpty)
            #expect(try await RawConnection.exchange(port: server.port, from: nil, "HEAD", "/customers/\(ConsoleFixture.customer)/entitlements").status == 401)
        }
    }
}
