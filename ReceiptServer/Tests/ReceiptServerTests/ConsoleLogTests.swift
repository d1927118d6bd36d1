import Foundation
import Logging
import NIOConcurrencyHelpers
import ReceiptServerCore
import Testing

/// The console writes no secret to the log: not the access token, not a session cookie, not a CSRF
/// token, not a customer ID (the request log names route patterns only).
@Suite("Console: no secrets in the log", .timeLimit(.minutes(2)), .serialized)
struct ConsoleLogTests {
    @Test("Signing in (right and wrong), reading a customer, refused and accepted forms, signing out: no secret in any log line")
    func noSecretsLogged() async throws {
        let (logger, lines) = CapturingLogHandler.logger(level: .trace)
        let fixture = try ConsoleFixture()
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try await fixture.startServer(databasePath: directory.databasePath, logger: logger)
        var secrets: [String] = [ConsoleFixture.token, "wrong-token-0123456789abcdef", ConsoleFixture.customer]
        try await server.stopping { try await ConsoleBrowser.using(port: server.port) { browser in
            try await fixture.seed(server)
            // From here on the console alone: what the seeding routes log is theirs.
            lines.withLockedValue { $0.removeAll() }
            try await browser.signIn(token: "wrong-token-0123456789abcdef")
            try await browser.signIn(token: ConsoleFixture.token)
            secrets.append(browser.cookies["receipt_console_session"] ?? "no cookie")
            let csrf = try await browser.csrfToken()
            secrets.append(csrf)
            _ = try await browser.get("/console/search?q=\(ConsoleFixture.customer)")
            _ = try await browser.get("/console/customers/\(ConsoleFixture.customer)")
            _ = try await browser.post("/console/sign-out", form: [("csrf", "forged")])
            _ = try await browser.post("/console/sign-out", form: [("csrf", csrf)])
        } }
        let logged = lines.withLockedValue { $0 }
        #expect(logged.contains { $0.message == "console sign-in refused: not the access token" })
        #expect(logged.contains { $0.message == "console sign-in" })
        #expect(logged.contains { $0.metadata["route"] == "/console/customers/{appAccountToken}" })
        for line in logged {
            let text = ([line.message] + line.metadata.map { "\($0.key)=\($0.value)" }).joined(separator: " ")
            for secret in secrets {
                #expect(!text.contains(secret), "\(text)")
            }
        }
    }
}
