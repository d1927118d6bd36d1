import Foundation
import ReceiptServerCore
import Testing

/// Guessing the access token is slowed down per client address, and the token must be strong
/// (issue 39, finding 2).
@Suite("Guessing throttled per address; strong tokens only", .timeLimit(.minutes(2)))
struct GuessingThrottleTests {
    static let customer = "7e3fb20b-4cdb-47cc-936d-99d65f608138"
    static let path = "/customers/\(customer)/entitlements"
    /// Three free failures, then a wait far longer than the test.
    static let throttle = AuthenticationThrottleLimits(freeFailures: 3, firstDelay: .seconds(3600))

    @Test("Wrong bearer tokens from one address: 429 with Retry-After, the right token too, from that address only")
    func bearerGuessing() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try await TestServer.start(databasePath: directory.databasePath, throttle: Self.throttle)
        try await server.stopping {
            let wrong = [("Authorization", "Bearer guess-0123456789abcdef0123456789abcdef")]
            for _ in 0..<4 {
                #expect(try await RawConnection.exchange(port: server.port, from: "127.0.0.2", "GET", Self.path, headers: wrong).status == 401)
            }
            let throttled = try await RawConnection.exchange(port: server.port, from: "127.0.0.2", "GET", Self.path, headers: wrong)
            #expect(throttled.status == 429, "\(throttled.body)")
            #expect(throttled.header("Retry-After").flatMap(Int.init).map { $0 >= 1 } == true, "\(throttled.headers)")
            #expect(throttled.body.contains("tooManyAttempts"))
            // The right token from the guessing address waits too: guessing cannot go on in between.
            let right = [("Authorization", "Bearer \(TestServer.backendToken)")]
            #expect(try await RawConnection.exchange(port: server.port, from: "127.0.0.2", "GET", Self.path, headers: right).status == 429)
            // Another address is not locked out.
            #expect(try await server.entitlements(of: Self.customer).status == 200)
            #expect(try await RawConnection.exchange(port: server.port, from: "127.0.0.3", "GET", Self.path, headers: right).status == 200)
            // The open routes still serve the guessing address when it sends no token.
            #expect(try await RawConnection.exchange(port: server.port, from: "127.0.0.2", "GET", "/health").status == 200)
            #expect(server.metric(#"receipt_server_authentication_throttled_total{surface="bearer"}"#) == 2)
        }
    }

    @Test("Wrong console sign-ins from one address: 429 with Retry-After, shared with the bearer routes; other addresses sign in")
    func consoleGuessing() async throws {
        let fixture = try ConsoleFixture()
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try await fixture.startServer(databasePath: directory.databasePath, throttle: Self.throttle)
        try await server.stopping { try await ConsoleBrowser.using(port: server.port) { browser in
            for _ in 0..<4 {
                #expect(try await browser.signIn(token: "guess-0123456789abcdef0123456789abcdef").status == 403)
            }
            let throttled = try await browser.signIn(token: ConsoleFixture.token)
            #expect(throttled.status == 429)
            #expect(throttled.header("Retry-After").flatMap(Int.init).map { $0 >= 1 } == true)
            #expect(browser.cookies["receipt_console_session"] == nil, "no session while throttled")
            // The same address's bearer token waits too (one token, one count).
            let bearer = try await server.entitlements(of: ConsoleFixture.customer)
            #expect(bearer.status == 429, "\(bearer.text)")
            // Another address signs in and uses the bearer routes.
            let form = try await RawConnection.exchange(port: server.port, from: "127.0.0.2", "GET", "/console/sign-in")
            #expect(form.status == 200)
            let right = [("Authorization", "Bearer \(ConsoleFixture.token)")]
            #expect(try await RawConnection.exchange(port: server.port, from: "127.0.0.2", "GET", "/customers/\(ConsoleFixture.customer)/entitlements", headers: right).status == 200)
            #expect(server.metric(#"receipt_server_authentication_throttled_total{surface="console"}"#) == 1)
        } }
    }

    @Test("Many addresses guessing: the table stays bounded, and a guessing address is still throttled")
    func manyAddresses() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let limits = AuthenticationThrottleLimits(freeFailures: 0, firstDelay: .seconds(3600), maximumAddresses: 20)
        let proxied = try TrustedProxies(["127.0.0.2"])
        let server = try await TestServer.start(databasePath: directory.databasePath, trustedProxies: proxied, throttle: limits)
        try await server.stopping {
            let wrong = ("Authorization", "Bearer guess-0123456789abcdef0123456789abcdef")
            // 50 addresses through the trusted proxy, each wrong once (kept: the table holds 20).
            for index in 0..<50 {
                let answer = try await RawConnection.exchange(port: server.port, from: "127.0.0.2", "GET", Self.path,
                                                              headers: [wrong, ("X-Forwarded-For", "198.51.100.\(index)")])
                #expect(answer.status == 401)
            }
            // The latest address is remembered and waits.
            let latest = try await RawConnection.exchange(port: server.port, from: "127.0.0.2", "GET", Self.path,
                                                          headers: [wrong, ("X-Forwarded-For", "198.51.100.49")])
            #expect(latest.status == 429)
        }
    }

    @Test("The token rule: 32+ printable characters, 8+ different ones, not one piece repeated")
    func tokenRule() throws {
        #expect(AccessTokenRule.weakness(of: "aaaaaaaaaaaaaaaa") != nil)
        #expect(AccessTokenRule.weakness(of: String(repeating: "a", count: 64)) != nil)
        #expect(AccessTokenRule.weakness(of: String(repeating: "abcdefgh", count: 4)) != nil)
        #expect(AccessTokenRule.weakness(of: String(repeating: "0123456789abcdef", count: 2) + "01") != nil, "a repetition with a partial tail")
        #expect(AccessTokenRule.weakness(of: "0123456789abcdef0123456789abcde") != nil, "31 characters")
        #expect(AccessTokenRule.weakness(of: "ab cdefghijklmnopqrstuvwxyz0123456789") != nil, "a space")
        #expect(AccessTokenRule.weakness(of: "3f9c1e0b7a5d2468ace13579bdf02468c0ffee11deadbeef") == nil)
        #expect(AccessTokenRule.weakness(of: TestServer.backendToken) == nil)
        // 100 tokens as `openssl rand -hex 32` makes them all pass.
        for _ in 0..<100 {
            let token = (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
            #expect(AccessTokenRule.weakness(of: token) == nil, "\(token)")
        }
    }

    @Test("A weak token stops the start: in process, and the command saying `openssl rand -hex 32`")
    func weakTokenRefused() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        await #expect(throws: WeakAccessTokenError.self) {
            _ = try await TestServer.start(databasePath: directory.databasePath, access: AccessControl(bearerToken: "aaaaaaaaaaaaaaaa"))
        }
        let executable = try ServerProcess.requireExecutable()
        for weak in ["aaaaaaaaaaaaaaaa", String(repeating: "ab12", count: 10)] {
            let (status, output) = try await ServerProcess.runToExit(
                executable, arguments: ["--port", "0", "--database", directory.databasePath, "--bundle-id", "com.example.app"],
                environment: ["RECEIPT_SERVER_ACCESS_TOKEN": weak])
            #expect(status != 0)
            #expect(output.contains("openssl rand -hex 32"), "\(output)")
            #expect(!output.contains(weak), "the token is not printed")
        }
        let (status, output) = try await ServerProcess.runToExit(
            executable, arguments: ["--port", "0", "--database", directory.databasePath, "--bundle-id", "com.example.app"],
            environment: ["RECEIPT_SERVER_ACCESS_TOKEN": TestServer.backendToken, "RECEIPT_SERVER_METRICS_TOKEN": "metrics"])
        #expect(status != 0)
        #expect(output.contains("RECEIPT_SERVER_METRICS_TOKEN") && output.contains("openssl rand -hex 32"), "\(output)")
    }
}
