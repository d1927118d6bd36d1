import AppStoreVerification
import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import ReceiptServerCore
import Synchronization
import Testing

/// Two `ReceiptServer` processes on one PostgreSQL database, as behind a load balancer: the same
/// purchases and refunds sent to both at once, and one of them killed with SIGKILL under load.
/// Every item a server acknowledged (200) is stored exactly once, and both answer the same.
@Suite("Two server processes on one PostgreSQL", .serialized, .timeLimit(.minutes(5)))
struct MultiProcessTests {
    /// One request of the load: a purchase the app sends, or Apple's refund notification.
    struct Item: Sendable {
        let isNotification: Bool
        let jws: String
        let customer: String
        var path: String { isNotification ? "/notifications" : "/transactions" }
        var body: Data {
            let object = isNotification ? ["signedPayload": jws] : ["signedTransaction": jws]
            return (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
        }
    }

    /// `customers` customers with `purchases` non-consumables each; every third one refunded.
    static func load(_ minted: MintedData, customers: Int, purchases: Int, base: Int) throws -> (items: [Item], customers: [String], granted: Int) {
        var items: [Item] = []
        var tokens: [String] = []
        for c in 0..<customers {
            let customer = UUID().uuidString.lowercased()
            tokens.append(customer)
            for p in 0..<purchases {
                let id = "\(base + c * 1000 + p)"
                let product = "com.example.app.item\(p)"
                items.append(Item(isNotification: false, jws: try minted.purchase(transactionId: id, productId: product, customer: customer), customer: customer))
                if p % 3 == 0 {
                    items.append(Item(isNotification: true, jws: try minted.refund(transactionId: id, productId: product, customer: customer), customer: customer))
                }
            }
        }
        return (items, tokens, purchases - (purchases + 2) / 3)
    }

    /// Counts finished requests and collects the acknowledged items.
    final class Tally: Sendable {
        private let state = Mutex<(done: Int, acknowledged: Set<String>, failures: [String], dead: Set<String>)>((0, [], [], []))
        /// Those waiting for a number of finished requests (``reached(_:)``).
        private let waiting = Mutex<[(count: Int, continuation: CheckedContinuation<Void, Never>)]>([])
        /// Marks a server killed: like a load balancer, the load sends it nothing more.
        func kill(_ server: String) { state.withLock { _ = $0.dead.insert(server) } }
        func isDead(_ server: String) -> Bool { state.withLock { $0.dead.contains(server) } }
        func record(_ item: Item, status: Int?, server: String) {
            let done = state.withLock { state in
                state.done += 1
                if status == 200 { state.acknowledged.insert(item.jws) }
                if let status, status != 200 { state.failures.append("\(server): \(status)") }
                return state.done
            }
            let due = waiting.withLock { waiting in
                let due = waiting.filter { $0.count <= done }
                waiting.removeAll { $0.count <= done }
                return due
            }
            due.forEach { $0.continuation.resume() }
        }
        /// Returns once `count` requests have finished.
        func reached(_ count: Int) async {
            await withCheckedContinuation { continuation in
                let now = waiting.withLock { waiting in
                    // Checked under the waiters' lock: a record in between resumes it.
                    if done >= count { return true }
                    waiting.append((count, continuation))
                    return false
                }
                if now { continuation.resume() }
            }
        }
        var done: Int { state.withLock { $0.done } }
        var acknowledged: Set<String> { state.withLock { $0.acknowledged } }
        var failures: [String] { state.withLock { $0.failures } }
    }

    /// POSTs `item` to the server on `port`; the status, or `nil` when the connection failed.
    static func send(_ item: Item, to port: Int, client: HTTPClient) async -> Int? {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(item.path)")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(bytes: item.body))
        guard let response = try? await client.execute(request, timeout: .seconds(10)) else { return nil }
        _ = try? await response.body.collect(upTo: 4 << 20)
        return Int(response.status.code)
    }

    /// Sends every item to every port, `concurrency` requests at a time, in a shuffled order.
    static func run(_ items: [Item], to ports: [(String, Int)], client: HTTPClient, tally: Tally, concurrency: Int = 16) async {
        let jobs = items.flatMap { item in ports.map { (item, $0) } }.shuffled()
        await withTaskGroup(of: Void.self) { group in
            var next = 0
            for _ in 0..<min(concurrency, jobs.count) {
                let (item, (name, port)) = jobs[next]
                next += 1
                group.addTask { tally.record(item, status: tally.isDead(name) ? nil : await send(item, to: port, client: client), server: name) }
            }
            while await group.next() != nil, next < jobs.count {
                let (item, (name, port)) = jobs[next]
                next += 1
                group.addTask { tally.record(item, status: tally.isDead(name) ? nil : await send(item, to: port, client: client), server: name) }
            }
        }
    }

    /// Every acknowledged item is stored exactly once, and nothing else is stored.
    static func checkStoredOnce(_ acknowledged: Set<String>, customers: [String], location: String, verifier: SignedDataVerifier) async throws {
        try await ReceiptStore.withOpened(location, verifier: verifier, logger: Logger(label: "check")) { store in
            var stored: [String] = []
            for customer in customers {
                stored += try await store.signedData(forCustomer: customer).map(\.jws)
            }
            #expect(stored.count == Set(stored).count, "no JWS stored twice")
            #expect(Set(stored).isSuperset(of: acknowledged), "every acknowledged item is stored (\(acknowledged.subtracting(stored).count) missing)")
            #expect(try await store.count() == stored.count)
        }
    }

    /// Both servers answer every customer the same, with `granted` entitlements, equal to recomputation.
    static func checkAnswers(customers: [String], granted: Int, servers: [ServerProcess], client: HTTPClient, location: String, verifier: SignedDataVerifier) async throws {
        try await ReceiptStore.withOpened(location, verifier: verifier, logger: Logger(label: "check")) { store in
            for customer in customers {
                var answers: [EntitlementsAnswer] = []
                for server in servers {
                    var request = HTTPClientRequest(url: "http://127.0.0.1:\(server.port)/customers/\(customer)/entitlements?at=1800000000000")
                    request.method = .GET
                    request.headers.add(name: "Authorization", value: "Bearer \(TestServer.backendToken)")
                    let response = try await client.execute(request, timeout: .seconds(30))
                    let body = try await response.body.collect(upTo: 4 << 20)
                    #expect(response.status.code == 200)
                    answers.append(try JSONDecoder().decode(EntitlementsAnswer.self, from: Data(body.readableBytesView)))
                }
                let rows = try await store.signedData(forCustomer: customer)
                let expected = Recomputation.answer(rows: rows, customer: customer, at: Date(timeIntervalSince1970: 1_800_000_000), verifier: verifier, configuration: .init())
                for answer in answers {
                    #expect(answer == expected, "customer \(customer)")
                    #expect(answer.entitlements.count == granted, "customer \(customer)")
                }
            }
        }
    }

    @Test("The same purchases and refunds sent to two processes at once: every acknowledged item stored once, both answer as one")
    func twoProcesses() async throws {
        let executable = try ServerProcess.requireExecutable()
        let database = try await TestDatabase.make(.postgres)
        let minted = try MintedData()
        defer { minted.remove() }
        let (items, customers, granted) = try Self.load(minted, customers: 8, purchases: 12, base: 3_000_000)
        let client = HTTPClient.forTests()
        var servers: [ServerProcess] = []
        do {
            async let first = ServerProcess.start(executable: executable, database: database.location, roots: [minted.rootFile])
            async let second = ServerProcess.start(executable: executable, database: database.location, roots: [minted.rootFile])
            servers = try await [first, second]
            let tally = Tally()
            await Self.run(items, to: [("A", servers[0].port), ("B", servers[1].port)], client: client, tally: tally)
            #expect(tally.failures.isEmpty, "\(tally.failures.prefix(10))")
            #expect(tally.acknowledged.count == items.count, "every item acknowledged by at least one server")
            let verifier = try SignedDataVerifier(configuration: minted.pki.verifierConfiguration())
            try await Self.checkStoredOnce(tally.acknowledged, customers: customers, location: database.location, verifier: verifier)
            try await Self.checkAnswers(customers: customers, granted: granted, servers: servers, client: client, location: database.location, verifier: verifier)
        } catch {
            for server in servers { await server.stop() }
            try? await client.shutdown()
            throw error
        }
        for server in servers { await server.stop() }
        try await client.shutdown()
    }

    @Test("kill -9 of one process mid-load: every acknowledged item stored once; the survivor and a restarted process answer as one")
    func killOneMidLoad() async throws {
        let executable = try ServerProcess.requireExecutable()
        let database = try await TestDatabase.make(.postgres)
        let minted = try MintedData()
        defer { minted.remove() }
        let (items, customers, granted) = try Self.load(minted, customers: 8, purchases: 12, base: 4_000_000)
        let client = HTTPClient.forTests()
        var servers: [ServerProcess] = []
        do {
            servers.append(try await ServerProcess.start(executable: executable, database: database.location, roots: [minted.rootFile]))
            servers.append(try await ServerProcess.start(executable: executable, database: database.location, roots: [minted.rootFile]))
            let victim = servers[0]
            let tally = Tally()
            let total = items.count * 2
            let killer = Task {
                await tally.reached(total / 3)
                tally.kill("A")
                await victim.kill()
            }
            await Self.run(items, to: [("A", servers[0].port), ("B", servers[1].port)], client: client, tally: tally)
            await killer.value
            #expect(victim.process.exitStatus != nil)
            #expect(tally.failures.isEmpty, "no error answers, only refused connections after the kill: \(tally.failures.prefix(10))")
            let verifier = try SignedDataVerifier(configuration: minted.pki.verifierConfiguration())
            try await Self.checkStoredOnce(tally.acknowledged, customers: customers, location: database.location, verifier: verifier)
            // B received everything; a restarted A answers the same.
            servers[0] = try await ServerProcess.start(executable: executable, database: database.location, roots: [minted.rootFile])
            try await Self.checkAnswers(customers: customers, granted: granted, servers: servers, client: client, location: database.location, verifier: verifier)
        } catch {
            for server in servers { await server.stop() }
            try? await client.shutdown()
            throw error
        }
        for server in servers { await server.stop() }
        try await client.shutdown()
    }
}
