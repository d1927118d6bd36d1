import AsyncHTTPClient
import Foundation
import Logging
import ReceiptServerCore
import SQLiteNIO
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
        } catch {
            try await first.stop()
            throw error
        }
        try await first.stop()
        if store == .sqlite {
            // The writer service closed the database on shutdown: SQLite removes the WAL file when
            // the last connection closes.
            #expect(!FileManager.default.fileExists(atPath: directory.databasePath + "-wal"), "the database was left open")
        }

        let second = try await TestServer.start(databasePath: directory.databasePath, now: Self.now)
        do {
            let after = try await second.entitlements(of: Self.customer)
            #expect(after.status == 200)
            #expect(after.text == before.text, "the same answer after the restart")
            #expect(try await second.server.store.count() == 2)
            // The purchase is still linked: a transaction of it needs no appAccountToken, and is a re-send.
            let resend = try await second.postTransaction(transaction)
            #expect(resend.status == 200, "\(resend.text)")
            #expect(resend.json["stored"] as? Bool == false)
            #expect(resend.json["appAccountToken"] as? String == Self.customer)
            #expect(try await second.server.store.count() == 2)
        } catch {
            try await second.stop()
            throw error
        }
        try await second.stop()
    }

    @Test("A notification that cannot be stored (database locked) is answered 503 with Retry-After; Apple's retry succeeds")
    func lockedDatabaseIsRetryable() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = try await TestServer.start(databasePath: directory.databasePath, now: Self.now, busyTimeoutMilliseconds: 50)
        // Another process's writer holds the database's write lock.
        let other = try await SQLiteConnection.open(storage: .file(path: directory.databasePath), logger: Logger(label: "other-writer"))
        do {
            _ = try await other.query("BEGIN IMMEDIATE")
            let notification = try TestData.jws("jws/notification-valid.jws")
            let refused = try await server.postNotification(notification)
            #expect(refused.status == 503, "\(refused.text)")
            #expect(refused.errorCode == "storageUnavailable")
            #expect(refused.errorMessage?.contains("..") == false, "\(refused.text)")
            #expect(refused.header("Retry-After") != nil)

            _ = try await other.query("ROLLBACK")
            #expect(try await server.server.store.count() == 0)
            let retried = try await server.retryingWhileUnavailable { try await server.postNotification(notification) }
            #expect(retried.status == 200, "\(retried.text)")
            #expect(retried.json["stored"] as? Bool == true)
            #expect(try await server.server.store.count() == 1)
        } catch {
            try? await other.close()
            try await server.stop()
            throw error
        }
        try await other.close()
        try await server.stop()
    }
}
