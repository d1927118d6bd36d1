import Foundation
import Logging
import NIOConcurrencyHelpers
import ReceiptServerCore
import Testing

/// `/health`, `/metrics` and the request log.
@Suite("Operations: health, metrics, logs", .timeLimit(.minutes(2)))
struct OperationsTests {
    static let customer = "7e3fb20b-4cdb-47cc-936d-99d65f608138"
    static let now = TestData.vectorsSignedDate.addingTimeInterval(86_400)

    @Test("/health answers 200 when the database answers, and the probe is timed")
    func health() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try await TestServer.start(databasePath: directory.databasePath, now: Self.now, testing: .router)
        try await server.stopping {
            let healthy = try await server.request(.GET, "/health")
            #expect(healthy.status == 200)
            #expect(healthy.json["status"] as? String == "ok")
            #expect(server.metric(#"receipt_server_store_duration_seconds_count{operation="health",result="ok"}"#) == 1)
        }
    }

    @Test("/metrics counts requests by route and status, and verification outcomes by reason")
    func metrics() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try await TestServer.start(databasePath: directory.databasePath, now: Self.now, testing: .router)
        try await server.stopping {
            #expect(try await server.postTransaction(try TestData.jws("jws/transaction-valid.jws"), appAccountToken: Self.customer).status == 200)
            #expect(try await server.postTransaction(try TestData.jws("jws/transaction-valid.jws"), appAccountToken: Self.customer).status == 200)
            #expect(try await server.postTransaction(try TestData.jws("jws/tampered-payload.jws"), appAccountToken: Self.customer).status == 422)
            #expect(try await server.postTransaction("not-a-jws").status == 400)
            #expect(try await server.postNotificationBody("{").status == 400)
            #expect(try await server.entitlements(of: Self.customer).status == 200)
            #expect(try await server.request(.GET, "/nowhere").status == 404)

            let answer = try await server.request(.GET, "/metrics")
            #expect(answer.status == 200)
            #expect(answer.header("Content-Type")?.hasPrefix("text/plain") == true)
            let text = answer.text
            #expect(text.contains("# TYPE receipt_server_requests_total counter"))
            #expect(server.metric(#"receipt_server_requests_total{method="POST",route="/transactions",status="200"}"#) == 2)
            #expect(server.metric(#"receipt_server_requests_total{method="POST",route="/transactions",status="422"}"#) == 1)
            #expect(server.metric(#"receipt_server_requests_total{method="POST",route="/transactions",status="400"}"#) == 1)
            #expect(server.metric(#"receipt_server_requests_total{method="POST",route="/notifications",status="400"}"#) == 1)
            #expect(server.metric(#"receipt_server_requests_total{method="GET",route="NotFound",status="404"}"#) == 1, "\(text)")
            #expect(server.metric(#"receipt_server_verifications_total{kind="transaction",outcome="verified"}"#) == 2)
            #expect(server.metric(#"receipt_server_verifications_total{kind="transaction",outcome="invalidSignature"}"#) == 1)
            #expect(server.metric(#"receipt_server_verifications_total{kind="transaction",outcome="malformedJWS"}"#) == 1)
            // Recorded where verification happens: a notification refused for its nested
            // transaction counts once, under the nested reason; a body that is not the route's
            // JSON verifies nothing and counts nothing.
            #expect(try await server.postNotification(try TestData.jws("jws/notification-tampered-inner.jws")).status == 422)
            #expect(try await server.postNotification(try TestData.jws("jws/notification-valid.jws")).status == 200)
            #expect(server.metric(#"receipt_server_verifications_total{kind="notification",outcome="invalidSignature"}"#) == 1)
            #expect(server.metric(#"receipt_server_verifications_total{kind="notification",outcome="verified"}"#) == 1)
            #expect(!server.metrics.exposition().contains(#"outcome="invalidBody""#))
            // Store latency: the two stored transactions (one new, one already stored) and the answer's state.
            #expect(server.metric(#"receipt_server_store_duration_seconds_count{operation="storeTransaction",result="ok"}"#) == 2, "\(text)")
            #expect((server.metric(#"receipt_server_store_duration_seconds_count{operation="customerState",result="ok"}"#) ?? 0) >= 1, "\(text)")
            // No customer ID in any label: routes are patterns.
            #expect(!text.contains(Self.customer))
            let entitlementRoutes = text.split(separator: "\n").filter { $0.hasPrefix("receipt_server_requests_total") && $0.contains("entitlements") }
            #expect(entitlementRoutes.count == 1, "\(entitlementRoutes)")
            // SQLite's WAL: the writes appended whole frames (a 4,096-byte page and its 24-byte
            // header each).
            let wal = server.metric("receipt_server_sqlite_wal_bytes_total") ?? 0
            #expect(wal > 0 && wal.truncatingRemainder(dividingBy: 4120) == 0, "\(text)")
        }
    }

    @Test("Each request is logged once with its ID, route, status and duration, and no token or JWS")
    func requestLog() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (logger, lines) = CapturingLogHandler.logger(level: .info)
        let token = "log-test-token-0123456789abcdef-0123"
        let jws = try TestData.jws("jws/transaction-valid.jws")
        let server = try await TestServer.start(databasePath: directory.databasePath, now: Self.now,
                                                access: AccessControl(bearerToken: token), logger: logger, testing: .router)
        try await server.stopping { () async throws in
            #expect(try await server.postTransaction(jws, appAccountToken: Self.customer).status == 200)
            #expect(try await server.request(.GET, "/customers/\(Self.customer)/entitlements", headers: [("Authorization", "Bearer \(token)")]).status == 200)
            #expect(try await server.request(.GET, "/customers/\(Self.customer)/entitlements", headers: [("Authorization", "Bearer wrong-\(token)")]).status == 401)
        }
        let requests = lines.withLockedValue { $0 }.filter { $0.message == "request" }
        #expect(requests.count == 3)
        #expect(requests.map { $0.metadata["status"] } == ["200", "200", "401"])
        #expect(requests.first?.metadata["route"] == "/transactions")
        #expect(requests.dropFirst().allSatisfy { $0.metadata["route"]?.contains("entitlements") == true })
        #expect(Set(requests.compactMap { $0.metadata["hb.request.id"] }).count == 3, "each request has its own ID")
        #expect(requests.allSatisfy { $0.metadata["duration_ms"].flatMap(Double.init) != nil })
        let everything = lines.withLockedValue { $0 }.map { "\($0.message) \($0.metadata)" }.joined(separator: "\n")
        #expect(!everything.contains(token))
        #expect(!everything.contains(String(jws.prefix(40))))
        #expect(!requests.contains { "\($0.metadata)".contains(Self.customer) }, "request lines name routes, not customers")
    }
}
