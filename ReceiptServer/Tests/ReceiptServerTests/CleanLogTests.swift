import AppStoreVerification
import AppStoreVerificationTestSupport
import Foundation
import Logging
import NIOConcurrencyHelpers
import ReceiptServerCore
import Testing

/// The log names route patterns, never paths, carries no customer ID, token, JWS or SQL, and a
/// signed field cannot forge a line (issue 39, findings 3 and 4).
@Suite("Clean logs: no customer ID, no forged line", .timeLimit(.minutes(3)), .serialized)
struct CleanLogTests {
    @Test("Every route and every failure, the database broken at the end: no customer ID or secret in any log line", arguments: StoreKind.allCases)
    func everyRouteAndFailure(store: StoreKind) async throws {
        let (logger, lines) = CapturingLogHandler.logger(level: .debug)
        let database = try await TestDatabase.make(store)
        defer { database.remove() }
        let fixture = try ConsoleFixture()
        let other = "0b9a8c7d-6e5f-4a3b-9c2d-1e0f9a8b7c6d"
        let claimant = "c1a1a4b7-0000-4000-8000-000000000001"
        let stranger = "d4e5f6a7-b8c9-4d0e-9f1a-2b3c4d5e6f70"
        let customers = [ConsoleFixture.customer, other, claimant, stranger]
        let otherPurchase = try fixture.minter.transaction(Transaction(
            transactionId: "5200000000000001", productId: ConsoleFixture.lifetime, purchaseDate: fixture.now - 2 * ConsoleFixture.day,
            type: .nonConsumable, appAccountToken: other, signedDate: fixture.now - 2 * ConsoleFixture.day))
        let laterPurchase = try fixture.minter.transaction(Transaction(
            transactionId: "5200000000000002", productId: ConsoleFixture.lifetime, purchaseDate: fixture.now - ConsoleFixture.day,
            type: .nonConsumable, appAccountToken: other, signedDate: fixture.now - ConsoleFixture.day))
        let forged = try fixture.minter.notification(
            ResponseBodyV2DecodedPayload(notificationType: NotificationTypeV2(rawValue: "SUBSCRIBED\n2026-01-01T00:00:00Z error : forged line\u{1B}[2K"),
                                         notificationUUID: UUID().uuidString.lowercased(), signedDate: fixture.now - ConsoleFixture.day),
            transaction: fixture.purchase)
        let server = try await fixture.startServer(databasePath: database.location, logger: logger)
        try await server.stopping { try await ConsoleBrowser.using(port: server.port) { browser in
            try await fixture.seed(server)
            #expect(try await server.postTransaction(otherPurchase, appAccountToken: other, as: .anonymous).status == 200)
            #expect(try await server.postTransaction(fixture.purchaseJWS, appAccountToken: claimant).status == 409)
            #expect(try await server.request(.POST, "/transactions", headers: [("Content-Type", "text/plain")], body: nil).status == 415)
            #expect(try await server.postNotification(forged).status == 200)
            #expect(try await server.entitlements(of: ConsoleFixture.customer).status == 200)
            #expect(try await server.entitlements(of: stranger).status == 200)
            #expect(try await server.entitlements(of: stranger, as: .anonymous).status == 401)
            #expect(try await server.request(.GET, "/customers/\(stranger)/entitlements", headers: [("Authorization", "Bearer wrong-\(ConsoleFixture.token)")]).status == 401)
            #expect(try await server.request(.GET, "/customers/\(stranger)/entitlements?at=\(stranger)").status == 400)
            #expect(try await server.request(.POST, "/transactions/\(ConsoleFixture.purchaseId)/reconcile",
                                             body: Data(#"{"appAccountToken": "\#(other)"}"#.utf8)).status == 501)
            #expect(try await server.request(.GET, "/customers/\(stranger)/nothing").status == 404)
            #expect(try await server.request(.GET, "/health", as: .anonymous).status == 200)
            #expect(try await server.request(.HEAD, "/health", as: .anonymous).status == 200)
            #expect(try await server.request(.GET, "/metrics").status == 200)
            try await browser.signIn(token: "wrong-\(ConsoleFixture.token)")
            try await browser.signIn(token: ConsoleFixture.token)
            #expect(try await browser.get("/console/search?q=\(ConsoleFixture.customer)").status < 400)
            #expect(try await browser.get("/console/customers/\(ConsoleFixture.customer)").status == 200)
            #expect(try await browser.get("/console/customers/\(stranger)").status == 404)
            // The database breaks: every read and write fails.
            try await Self.breakDatabase(database)
            #expect(try await server.entitlements(of: ConsoleFixture.customer).status == 503)
            #expect(try await server.postTransaction(laterPurchase, appAccountToken: other).status == 503)
            let health = try await server.request(.GET, "/health", as: .anonymous)
            #expect(health.status == 503)
            // A stranger is told ready or not, nothing of the database's error.
            for detail in ["SELECT", "signed_data", "customers", "relation", "no such table", "sqlite", "SQLite", "PostgreSQL"] {
                #expect(!health.text.contains(detail), "\(health.text)")
            }
            #expect(try await browser.get("/console/customers/\(ConsoleFixture.customer)").status == 503)
        } }
        let logged = lines.withLockedValue { $0 }
        let texts = logged.map { ([$0.message] + $0.metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }).joined(separator: " ") }
        #expect(logged.contains { $0.level == .error && $0.message.contains("customers/{appAccountToken}/entitlements") }, "the failure names the route pattern")
        #expect(logged.contains { $0.message.contains("/health") && ($0.message.contains("no such table") || $0.message.contains("does not exist")) },
                "the health failure's details are in the log: \(texts.joined(separator: "\n"))")
        #expect(logged.contains { $0.message.contains(#"SUBSCRIBED\n2026-01-01T00:00:00Z error : forged line\u{1B}[2K"#) }, "the signed field is logged escaped")
        let secrets = customers + [ConsoleFixture.token, String(fixture.purchaseJWS.prefix(40)), String(forged.prefix(40))]
        for text in texts {
            #expect(!text.contains("\n") && !text.contains("\r") && !text.contains("\u{1B}"), "a line holds a line break or an escape: \(text)")
            for secret in secrets {
                #expect(!text.lowercased().contains(secret.lowercased()), "\(text)")
            }
        }
    }

    /// Drops the tables every read and write needs, from another connection.
    static func breakDatabase(_ database: TestDatabase) async throws {
        switch database.kind {
        case .sqlite:
            let dropped = try await ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"),
                                                      ["sqlite3", database.location, "PRAGMA busy_timeout = 10000; DROP TABLE customers; DROP TABLE signed_data;"])
            guard dropped.status == 0 else { throw TestServerError("sqlite3 could not drop the tables (status \(dropped.status)): \(dropped.output)") }
        case .postgres:
            try await PostgresCluster.shared().execute(["DROP TABLE customers CASCADE", "DROP TABLE signed_data CASCADE"], database: database.postgresName)
        }
    }
}
