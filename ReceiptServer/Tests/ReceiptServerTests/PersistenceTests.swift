import AppStoreVerification
import AsyncHTTPClient
import Foundation
import Logging
import ReceiptServerCore
import Testing

/// The database file is the server's state: it survives a restart, and a database failure is a
/// retryable 503.
@Suite("Persistence", .timeLimit(.minutes(2)))
struct PersistenceTests {
    static let customer = "5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a"
    static let now = TestData.vectorsSignedDate.addingTimeInterval(3600)

    @Test("A restart on the same database file keeps purchases, notifications and customer links", arguments: StoreKind.allCases)
    func restartKeepsState(store: StoreKind) async throws {
        let directory = try await TestDatabase.make(store)
        defer { directory.remove() }
        let transaction = try TestData.jws("jws/transaction-valid.jws")

        let first = try await TestServer.start(databasePath: directory.databasePath, now: Self.now)
        let before: TestServer.Answer
        do {
            #expect(try await first.postNotification(try TestData.jws("jws/notification-valid.jws")).status == 200)
            let purchase = try await first.postTransaction(transaction, appAccountToken: Self.customer)
            #expect(purchase.status == 200, "\(purchase.text)")
            before = try await first.entitlements(of: Self.customer)
            #expect(before.entitlements.count == 1)
            if store == .sqlite {
                #expect(!Self.openFiles(startingWith: directory.databasePath).isEmpty, "a running server has its database open")
            }
        } catch {
            try await first.stop()
            throw error
        }
        try await first.stop()
        if store == .sqlite {
            // The writer service closed the database on shutdown: this process holds no file of it open.
            #expect(Self.openFiles(startingWith: directory.databasePath).isEmpty, "the database was left open")
        }

        let second = try await TestServer.start(databasePath: directory.databasePath, now: Self.now)
        do {
            let after = try await second.entitlements(of: Self.customer)
            #expect(after.status == 200)
            #expect(after.text == before.text, "the same answer after the restart")
            #expect(try await second.store.count() == 2)
            // The purchase is still linked: a transaction of it needs no appAccountToken, and is a re-send.
            let resend = try await second.postTransaction(transaction)
            #expect(resend.status == 200, "\(resend.text)")
            #expect(resend.json["stored"] as? Bool == false)
            #expect(resend.json["appAccountToken"] as? String == Self.customer)
            #expect(try await second.store.count() == 2)
        } catch {
            try await second.stop()
            throw error
        }
        try await second.stop()
    }

    @Test("SQLite, kill -9 mid-load: every acknowledged item is stored once, and a restarted process answers as recomputation does")
    func killMidLoadSQLite() async throws {
        let executable = try ServerProcess.requireExecutable()
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let minted = try MintedData()
        defer { minted.remove() }
        let (items, customers, granted) = try MultiProcessTests.load(minted, customers: 6, purchases: 12, base: 5_000_000)
        let client = HTTPClient.forTests()
        var server: ServerProcess?
        do {
            let victim = try await ServerProcess.start(executable: executable, database: directory.databasePath, roots: [minted.rootFile])
            server = victim
            let tally = MultiProcessTests.Tally()
            let killer = Task {
                await tally.reached(items.count / 2)
                tally.kill("A")
                await victim.kill()
            }
            await MultiProcessTests.run(items, to: [("A", victim.port)], client: client, tally: tally)
            await killer.value
            #expect(victim.process.exitStatus != nil)
            #expect(tally.failures.isEmpty, "no error answers, only refused connections after the kill: \(tally.failures.prefix(10))")
            let verifier = try SignedDataVerifier(configuration: minted.pki.verifierConfiguration())
            try await MultiProcessTests.checkStoredOnce(tally.acknowledged, customers: customers, location: directory.databasePath, verifier: verifier)
            // A restarted process on the same file: send everything again, then every customer is whole.
            let restarted = try await ServerProcess.start(executable: executable, database: directory.databasePath, roots: [minted.rootFile])
            server = restarted
            let again = MultiProcessTests.Tally()
            await MultiProcessTests.run(items, to: [("B", restarted.port)], client: client, tally: again)
            #expect(again.failures.isEmpty, "\(again.failures.prefix(10))")
            try await MultiProcessTests.checkAnswers(customers: customers, granted: granted, servers: [restarted], client: client,
                                                     location: directory.databasePath, verifier: verifier)
        } catch {
            await server?.stop()
            try? await client.shutdown()
            throw error
        }
        await server?.stop()
        try await client.shutdown()
    }

    /// The files this process has open whose path starts with `prefix` (Linux: `/proc/self/fd`).
    static func openFiles(startingWith prefix: String) -> [String] {
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return descriptors.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)") }
            .filter { $0.hasPrefix(prefix) }
    }

    @Test("A notification that cannot be stored (database locked) is answered 503 with Retry-After; Apple's retry succeeds")
    func lockedDatabaseIsRetryable() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try await TestServer.start(databasePath: directory.databasePath, now: Self.now, busyTimeoutMilliseconds: 50)
        // Another process's writer holds the database's write lock.
        let other = try await SQLiteLockHolder.lock(directory.databasePath)
        do {
            let notification = try TestData.jws("jws/notification-valid.jws")
            let refused = try await server.postNotification(notification)
            #expect(refused.status == 503, "\(refused.text)")
            #expect(refused.errorCode == "storageUnavailable")
            #expect(refused.errorMessage?.contains("..") == false, "\(refused.text)")
            #expect(refused.header("Retry-After") != nil)

            try await other.release()
            #expect(try await server.store.count() == 0)
            let retried = try await server.retryingWhileUnavailable { try await server.postNotification(notification) }
            #expect(retried.status == 200, "\(retried.text)")
            #expect(retried.json["stored"] as? Bool == true)
            #expect(try await server.store.count() == 1)
        } catch {
            other.kill()
            try await server.stop()
            throw error
        }

        try await server.stop()
    }
}
