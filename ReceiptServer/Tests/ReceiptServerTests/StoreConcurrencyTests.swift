import AppStoreVerification
import AsyncHTTPClient
import Foundation
import Logging
import ReceiptServerCore
import Testing

/// Reads beside writes, a locked database, many writes at once.
@Suite("Database concurrency", .timeLimit(.minutes(3)))
struct StoreConcurrencyTests {
    static let now = TestData.vectorsSignedDate.addingTimeInterval(3600)

    @Test("SQLite: while another process holds the write lock, reads answer and every waiting write gets 503 with Retry-After")
    func lockedSQLite() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let customer = "6a1e3c5d-7b9f-4e2a-8c4d-1f3e5a7b9c0d"
        let server = try await TestServer.start(databasePath: directory.databasePath, now: Self.now, busyTimeoutMilliseconds: 2000)
        do {
            let jws = try TestData.jws("jws/transaction-valid.jws")
            let purchase = try await server.retryingWhileUnavailable { try await server.postTransaction(jws, appAccountToken: customer) }
            #expect(purchase.status == 200, "\(purchase.text)")
            let other = try await SQLiteLockHolder.lock(directory.databasePath)
            defer { other.kill() }
            // Reads go to WAL readers: they answer while the lock is held.
            let read = try await server.entitlements(of: customer)
            #expect(read.status == 200, "\(read.text)")
            #expect(read.entitlements.count == 1)
            let unknown = try await server.entitlements(of: UUID().uuidString)
            #expect(unknown.status == 200, "\(unknown.text)")
            // Every write waiting for the lock is refused, each with Retry-After.
            let notification = try TestData.jws("jws/notification-valid.jws")
            let answers = try await withThrowingTaskGroup(of: TestServer.Answer.self) { group in
                for _ in 0..<8 { group.addTask { try await server.postNotification(notification) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.count == 8)
            for answer in answers {
                #expect(answer.status == 503, "\(answer.text)")
                #expect(answer.header("Retry-After") != nil)
            }
            try await other.release()
            #expect(try await server.store.count(of: .notification) == 0)
            let retried = try await server.retryingWhileUnavailable { try await server.postNotification(notification) }
            #expect(retried.status == 200, "\(retried.text)")
        } catch {
            try await server.stop()
            throw error
        }
        try await server.stop()
    }

    @Test("PostgreSQL: while another session locks the table, reads answer and every waiting write gets 503 with Retry-After")
    func lockedPostgres() async throws {
        let database = try await TestDatabase.make(.postgres)
        let cluster = try await PostgresCluster.shared()
        let customer = "6a1e3c5d-7b9f-4e2a-8c4d-1f3e5a7b9c0d"
        let server = try await TestServer.start(databasePath: database.location, now: Self.now, busyTimeoutMilliseconds: 1500)
        do {
            let jws = try TestData.jws("jws/transaction-valid.jws")
            let purchase = try await server.retryingWhileUnavailable { try await server.postTransaction(jws, appAccountToken: customer) }
            #expect(purchase.status == 200, "\(purchase.text)")
            let name = database.postgresName
            let notification = try TestData.jws("jws/notification-valid.jws")
            // Another session takes an exclusive lock (reads still allowed) and holds it until every
            // answer is in: no fixed wait on either side.
            try await cluster.withSession(database: name) { session in
                try await session.execute("BEGIN")
                try await session.execute("LOCK TABLE signed_data IN EXCLUSIVE MODE")
                let read = try await server.entitlements(of: customer)
                #expect(read.status == 200, "\(read.text)")
                #expect(read.entitlements.count == 1)
                let answers = try await withThrowingTaskGroup(of: TestServer.Answer.self) { group in
                    for _ in 0..<8 { group.addTask { try await server.postNotification(notification) } }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(answers.count == 8)
                for answer in answers {
                    #expect(answer.status == 503, "\(answer.text)")
                    #expect(answer.header("Retry-After") != nil)
                }
                try await session.execute("COMMIT")
            }
            #expect(try await server.store.count(of: .notification) == 0)
            let retried = try await server.retryingWhileUnavailable { try await server.postNotification(notification) }
            #expect(retried.status == 200, "\(retried.text)")
        } catch {
            try await server.stop()
            throw error
        }
        try await server.stop()
    }

    @Test("Many distinct purchases and refunds at once are all stored once, and every answer equals recomputation", arguments: StoreKind.allCases)
    func concurrentWrites(store: StoreKind) async throws {
        let database = try await TestDatabase.make(store)
        defer { database.remove() }
        let minted = try MintedData()
        defer { minted.remove() }
        let customers = (0..<6).map { _ in UUID().uuidString.lowercased() }
        var requests: [(kind: String, jws: String, customer: String)] = []
        for (c, customer) in customers.enumerated() {
            for p in 0..<10 {
                let id = "\(700_000 + c * 100 + p)"
                requests.append(("transaction", try minted.purchase(transactionId: id, productId: "com.example.app.item\(p)", customer: customer), customer))
                if p % 3 == 0 {
                    requests.append(("notification", try minted.refund(transactionId: id, productId: "com.example.app.item\(p)", customer: customer), customer))
                }
            }
        }
        let server = try await TestServer.start(databasePath: database.location, root: minted.rootFile, now: Date(timeIntervalSince1970: 1_800_000_000))
        do {
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for request in requests.shuffled() {
                    group.addTask {
                        request.kind == "transaction"
                            ? try await server.postTransaction(request.jws).status
                            : try await server.postNotification(request.jws).status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.allSatisfy { $0 == 200 }, "\(statuses.filter { $0 != 200 })")
            #expect(try await server.store.count() == requests.count)
            let verifier = try SignedDataVerifier(configuration: minted.pki.verifierConfiguration())
            for customer in customers {
                let answer = try await server.entitlements(of: customer)
                #expect(answer.entitlements.count == 6, "4 of 10 purchases refunded: \(answer.text)")
                let served = try JSONDecoder().decode(EntitlementsAnswer.self, from: answer.body)
                let rows = try await server.store.signedData(forCustomer: customer)
                let expected = Recomputation.answer(rows: rows, customer: customer, at: Date(timeIntervalSince1970: Double(served.at) / 1000),
                                                    verifier: verifier, configuration: .init())
                #expect(served == expected)
            }
        } catch {
            try await server.stop()
            throw error
        }
        try await server.stop()
    }
}
