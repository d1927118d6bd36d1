import AppStoreVerificationTestSupport
import AsyncHTTPClient
import Foundation
import ReceiptServerCore
import Testing

/// Outbound events across processes: the `ReceiptServer` executable killed with SIGKILL between
/// the commit and the delivery, and two processes sharing one PostgreSQL database.
@Suite("Outbound events across processes", .serialized, .timeLimit(.minutes(4)))
struct WebhookProcessTests {
    static func environment(_ url: String) -> [String: String] {
        [
            "RECEIPT_SERVER_WEBHOOK_URL": url, "RECEIPT_SERVER_WEBHOOK_SECRET": WebhookTests.secret,
            "RECEIPT_SERVER_WEBHOOK_FIRST_RETRY_SECONDS": "0.05", "RECEIPT_SERVER_WEBHOOK_MAX_RETRY_DELAY_SECONDS": "0.2",
            "RECEIPT_SERVER_WEBHOOK_TIMEOUT_SECONDS": "2",
        ]
    }

    static func post(_ path: String, _ object: [String: String], port: Int, client: HTTPClient) async throws -> Int {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(try JSONSerialization.data(withJSONObject: object))
        let response = try await client.execute(request, timeout: .seconds(30))
        _ = try await response.body.collect(upTo: 1 << 20)
        return Int(response.status.code)
    }

    @Test("kill -9 between the commit and the delivery loses no event", arguments: StoreKind.allCases)
    func killBetweenCommitAndDelivery(store: StoreKind) async throws {
        let executable = try ServerProcess.requireExecutable()
        let database = try await TestDatabase.make(store)
        defer { database.remove() }
        let minted = try MintedData()
        defer { minted.remove() }
        let client = HTTPClient.shared
        // The receiver is down while the first process commits: nothing can be delivered.
        let port = try FreePorts.one()
        let url = "http://127.0.0.1:\(port)/hooks"
        let customers = (0..<3).map { _ in UUID().uuidString.lowercased() }
        let first = try await ServerProcess.start(executable: executable, database: database.location, roots: [minted.rootFile],
                                                  environment: Self.environment(url))
        do {
            for (index, customer) in customers.enumerated() {
                let jws = try minted.purchase(transactionId: "760000000000000\(index)", productId: "com.example.app.lifetime", customer: customer)
                #expect(try await Self.post("/transactions", ["signedTransaction": jws], port: first.port, client: client) == 200)
            }
        } catch {
            await first.stop()
            throw error
        }
        await first.kill()
        let receiver = try await WebhookReceiver.start(port: port)
        defer { Task { await receiver.stop() } }
        let second = try await ServerProcess.start(executable: executable, database: database.location, roots: [minted.rootFile],
                                                   environment: Self.environment(url))
        do {
            try await receiver.waitUntil("every committed change's event") { received in
                Set(received.filter { $0.type == "entitlements.changed" }.compactMap(\.customer)) == Set(customers)
            }
        } catch {
            print(second.log.suffix(2000))
            await second.stop()
            throw error
        }
        await second.stop()
        #expect(receiver.firstDeliveries.filter { $0.type == "entitlements.changed" }.count == customers.count)
        #expect(receiver.firstDeliveries.allSatisfy { $0.sequence == 1 })
        try WebhookTests.expectVerified(receiver)
    }

    @Test("Two processes on one PostgreSQL deliver each event once")
    func twoProcessesDeliverOnce() async throws {
        let executable = try ServerProcess.requireExecutable()
        let database = try await TestDatabase.make(.postgres)
        let minted = try MintedData()
        defer { minted.remove() }
        let client = HTTPClient.shared
        let receiver = try await WebhookReceiver.start()
        defer { Task { await receiver.stop() } }
        let servers = [
            try await ServerProcess.start(executable: executable, database: database.location, roots: [minted.rootFile],
                                          environment: Self.environment(receiver.url)),
            try await ServerProcess.start(executable: executable, database: database.location, roots: [minted.rootFile],
                                          environment: Self.environment(receiver.url)),
        ]
        do {
            let customers = (0..<10).map { _ in UUID().uuidString.lowercased() }
            var expected = 0
            for (c, customer) in customers.enumerated() {
                for p in 0..<3 {
                    let jws = try minted.purchase(transactionId: "77000000000\(c)\(p)000", productId: "com.example.app.item\(p)", customer: customer)
                    // Both processes, alternately.
                    #expect(try await Self.post("/transactions", ["signedTransaction": jws], port: servers[(c + p) % 2].port, client: client) == 200)
                    expected += 1
                }
            }
            let total = expected
            try await receiver.waitUntil("every event") { Set($0.map(\.id)).count == total }
            // Both processes stop gracefully (any delivery in flight finishes) before counting.
            for server in servers { await server.stop() }
            #expect(receiver.received.count == total, "each event delivered once")
            for customer in customers {
                #expect(receiver.firstDeliveries.filter { $0.customer == customer }.compactMap(\.sequence) == [1, 2, 3])
            }
            try WebhookTests.expectVerified(receiver)
        } catch {
            for server in servers { await server.stop() }
            throw error
        }
    }
}
