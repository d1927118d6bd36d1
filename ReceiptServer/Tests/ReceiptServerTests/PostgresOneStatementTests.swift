import AppStoreVerification
import Foundation
import Logging
@testable import ReceiptServerCore
import Testing

/// PostgreSQL's one-statement write of a transaction (``PostgresOneStatementTransaction``): every
/// outcome, the same as the multi-statement transaction's, and the fallback to it.
@Suite("PostgreSQL one-statement transaction write", .timeLimit(.minutes(3)))
struct PostgresOneStatementTests {
    static let alice = "0c1a7e3e-51c5-4c2a-9a57-2e2b6f0f6a01"
    static let bob = "0c1a7e3e-51c5-4c2a-9a57-2e2b6f0f6a02"

    /// One step of a scenario: rows of a purchase sent for a customer (or none).
    struct Step {
        let rows: [SignedDataRow]
        let purchase: String
        let claimed: String?
    }

    /// What a step did, as comparable values.
    struct Observed: Equatable, CustomStringConvertible {
        let outcome: ReceiptStore.TransactionOutcome
        let revision: Int64?
        let previousRevision: Int64?
        /// The IDs of the added items' JWS (`nil`: the customer's state must be restored).
        let added: [String]?
        let storedRows: Int

        var description: String { "\(outcome) revision \(revision.map(String.init) ?? "-") previous \(previousRevision.map(String.init) ?? "-") added \(added.map { "\($0)" } ?? "nil") rows \(storedRows)" }
    }

    /// Rows minted by a fresh test PKI, verified as the server verifies them.
    struct Rows {
        let minted: MintedData
        let verifier: SignedDataVerifier

        init() throws {
            minted = try MintedData()
            verifier = try SignedDataVerifier(configuration: minted.pki.verifierConfiguration())
        }

        /// A transaction of purchase `purchase` (its own ID `transactionId`).
        func transaction(_ transactionId: String, purchase: String) throws -> SignedDataRow {
            var payload = MintedData.purchasePayload(transactionId: transactionId, productId: "com.example.app.item", customer: nil)
            payload["originalTransactionId"] = purchase
            let jws = try minted.minter.sign(payloadJSON: try JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys]))
            let item = EntitlementEngine.Item.transaction(try verifier.verifyTransaction(jws))
            let stored = StoredSignedData(kind: .transaction, jws: jws, originalTransactionId: purchase, transactionId: transactionId,
                                          productId: "com.example.app.item", signedDate: MintedData.purchaseDate)
            return try SignedDataRow(row: stored, records: try VerifiedRecords.of(item, name: "transaction \(transactionId)"), item: item)
        }

        /// Renewal info of purchase `purchase`, signed at `signedDate`.
        func renewalInfo(purchase: String, signedDate: Int64) throws -> SignedDataRow {
            let payload: [String: Any] = [
                "originalTransactionId": purchase, "productId": "com.example.app.monthly", "autoRenewProductId": "com.example.app.monthly",
                "autoRenewStatus": 1, "environment": "Sandbox", "signedDate": signedDate, "recentSubscriptionStartDate": MintedData.purchaseDate,
            ]
            let jws = try minted.minter.sign(payloadJSON: try JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys]))
            let item = EntitlementEngine.Item.renewalInfo(try verifier.verifyRenewalInfo(jws))
            let stored = StoredSignedData(kind: .renewalInfo, jws: jws, originalTransactionId: purchase, productId: "com.example.app.monthly", signedDate: signedDate)
            return try SignedDataRow(row: stored, records: try VerifiedRecords.of(item, name: "renewal info of \(purchase)"), item: item)
        }

        /// A REFUND notification of purchase `purchase` (its `notificationUUID` is the row's
        /// `transactionId` here, to tell rows apart).
        func notification(purchase: String) throws -> SignedDataRow {
            let jws = try minted.refund(transactionId: purchase, productId: "com.example.app.item", customer: nil)
            let result = try verifier.verifyNotification(jws)
            let uuid = try result.payloadValue.notificationUUID ?? UUID().uuidString
            let stored = StoredSignedData(kind: .notification, jws: jws, originalTransactionId: purchase, transactionId: uuid, notificationUUID: uuid,
                                          notificationType: "REFUND", productId: "com.example.app.item", signedDate: MintedData.purchaseDate + 86_400_000)
            return try SignedDataRow(row: stored, records: try VerifiedRecords.of(.notification(result), name: "notification \(uuid)"), item: .notification(result))
        }
    }

    /// The ID of a row's JWS, to compare added items.
    static func id(of row: SignedDataRow) -> String { row.row.transactionId ?? "renewal \(row.row.signedDate ?? 0)" }

    /// Runs `steps` on a fresh PostgreSQL database, each through `write`, after `setUp`.
    static func run(
        _ steps: [Step], verifier: SignedDataVerifier, setUp: @escaping @Sendable (PostgresWrites) async throws -> Void = { _ in },
        write: @escaping @Sendable (PostgresBackend, Step) async throws -> StoreWrite.TransactionResult?
    ) async throws -> [Observed?] {
        let database = try await TestDatabase.make(.postgres)
        return try await ReceiptStore.withOpened(database.location, verifier: verifier, logger: Logger(label: "test")) { store in
            let backend = try #require(store.backend as? PostgresBackend)
            try await backend.withLeasedConnection("setting up") { try await setUp($0) }
            var observed: [Observed?] = []
            for step in steps {
                guard let result = try await write(backend, step) else {
                    observed.append(nil)
                    continue
                }
                let items = result.change?.items
                observed.append(Observed(
                    outcome: result.outcome, revision: result.change?.revision, previousRevision: result.change?.previousRevision,
                    added: items.map { added in added.map { item in step.rows.first { $0.item == item }.map(id(of:)) ?? "?" } },
                    storedRows: try await backend.count(of: nil)))
            }
            return observed
        }
    }

    /// The one statement alone (no fallback: `nil` when it asks for one).
    static func oneStatement(_ backend: PostgresBackend, _ step: Step) async throws -> StoreWrite.TransactionResult? {
        try await backend.withLeasedConnection("one statement") { writes in
            try await writes.storeTransactionInOneStatement(step.rows, purchase: step.purchase, claimedCustomer: step.claimed, receivedAt: 1_800_000_000_000)
        }
    }

    /// The multi-statement transaction.
    static func inTransaction(_ backend: PostgresBackend, _ step: Step) async throws -> StoreWrite.TransactionResult? {
        try await backend.storeTransactionInTransaction(step.rows, purchase: step.purchase, claimedCustomer: step.claimed, receivedAt: 1_800_000_000_000,
                                                        operation: "in a transaction", afterCommit: { _ in })
    }

    @Test("Every outcome of the one statement, and the same as the multi-statement transaction's")
    func outcomes() async throws {
        let rows = try Rows()
        defer { rows.minted.remove() }
        let first = try rows.transaction("2000001", purchase: "2000001")
        let renewal = try rows.renewalInfo(purchase: "2000001", signedDate: MintedData.purchaseDate)
        let second = try rows.transaction("2000002", purchase: "2000001")
        let laterRenewal = try rows.renewalInfo(purchase: "2000001", signedDate: MintedData.purchaseDate + 1000)
        let third = try rows.transaction("2000003", purchase: "2000001")
        let unlinked = try rows.transaction("3000001", purchase: "3000001")
        let hadData = try rows.transaction("4000001", purchase: "4000001")
        let hadDataLater = try rows.transaction("4000002", purchase: "4000001")
        let steps = [
            // Newly linked, with its renewal info: both rows added, revision 1.
            Step(rows: [first, renewal], purchase: "2000001", claimed: Self.alice),
            // Re-sent: nothing new, no revision raised.
            Step(rows: [first, renewal], purchase: "2000001", claimed: Self.alice),
            // Already linked to the claimed customer: the new transaction and only the new renewal info.
            Step(rows: [second], purchase: "2000001", claimed: Self.alice),
            Step(rows: [second, laterRenewal], purchase: "2000001", claimed: Self.alice),
            // Linked to another customer: a conflict, nothing stored, no revision raised.
            Step(rows: [third], purchase: "2000001", claimed: Self.bob),
            // No customer claimed: the linked one's.
            Step(rows: [third], purchase: "2000001", claimed: nil),
            // No customer claimed and no link: nothing stored.
            Step(rows: [unlinked], purchase: "3000001", claimed: nil),
            // Newly linked, the purchase already had data: the customer's state must be restored.
            Step(rows: [hadDataLater], purchase: "4000001", claimed: Self.bob),
        ]
        let setUp: @Sendable (PostgresWrites) async throws -> Void = { writes in
            _ = try await writes.insert(hadData, receivedAt: 1_700_000_000_000)
        }
        let expected: [Observed?] = [
            Observed(outcome: .stored(appAccountToken: Self.alice, isNew: true), revision: 1, previousRevision: 0, added: ["2000001", "renewal \(MintedData.purchaseDate)"], storedRows: 3),
            Observed(outcome: .stored(appAccountToken: Self.alice, isNew: false), revision: nil, previousRevision: nil, added: nil, storedRows: 3),
            Observed(outcome: .stored(appAccountToken: Self.alice, isNew: true), revision: 2, previousRevision: 1, added: ["2000002"], storedRows: 4),
            Observed(outcome: .stored(appAccountToken: Self.alice, isNew: true), revision: 3, previousRevision: 2, added: ["renewal \(MintedData.purchaseDate + 1000)"], storedRows: 5),
            Observed(outcome: .conflict(linkedTo: Self.alice), revision: nil, previousRevision: nil, added: nil, storedRows: 5),
            Observed(outcome: .stored(appAccountToken: Self.alice, isNew: true), revision: 4, previousRevision: 3, added: ["2000003"], storedRows: 6),
            Observed(outcome: .noCustomer, revision: nil, previousRevision: nil, added: nil, storedRows: 6),
            Observed(outcome: .stored(appAccountToken: Self.bob, isNew: true), revision: 1, previousRevision: 0, added: nil, storedRows: 7),
        ]
        let one = try await Self.run(steps, verifier: rows.verifier, setUp: setUp, write: Self.oneStatement)
        #expect(one == expected)
        let transaction = try await Self.run(steps, verifier: rows.verifier, setUp: setUp, write: Self.inTransaction)
        #expect(transaction == expected)
    }

    @Test("A purchase a concurrent transaction linked (invisible to the statement's snapshot) falls back to the multi-statement transaction")
    func fallback() async throws {
        let rows = try Rows()
        defer { rows.minted.remove() }
        let row = try rows.transaction("5000001", purchase: "5000001")
        // What the statement answers when another transaction linked the purchase while it ran:
        // no owner although a customer was claimed. Nothing was written; the caller falls back.
        let raced = PostgresOneStatementTransaction.Answer(customer: nil, newlyLinked: false, hadData: false, inserted: 0, revision: nil)
        #expect(try PostgresOneStatementTransaction.result(of: raced, rows: [row], claimedCustomer: Self.alice) == nil)
        // Without a claimed customer the same answer is simply "no customer".
        #expect(try PostgresOneStatementTransaction.result(of: raced, rows: [row], claimedCustomer: nil)?.outcome == .noCustomer)
        // The fallback, on the purchase linked to Bob, finds the link and reports the conflict.
        let setUp: @Sendable (PostgresWrites) async throws -> Void = { writes in
            _ = try await writes.link("5000001", to: Self.bob, at: 1_700_000_000_000)
        }
        let observed = try await Self.run([Step(rows: [row], purchase: "5000001", claimed: Self.alice)], verifier: rows.verifier, setUp: setUp, write: Self.inTransaction)
        #expect(observed == [Observed(outcome: .conflict(linkedTo: Self.bob), revision: nil, previousRevision: nil, added: nil, storedRows: 0)])
    }

    @Test("More rows than one statement takes are stored by the multi-statement transaction")
    func paths() async throws {
        let rows = try Rows()
        defer { rows.minted.remove() }
        let three = [try rows.transaction("6000001", purchase: "6000001"), try rows.renewalInfo(purchase: "6000001", signedDate: MintedData.purchaseDate + 1),
                     try rows.renewalInfo(purchase: "6000001", signedDate: MintedData.purchaseDate + 2)]
        let observed = try await Self.run([Step(rows: three, purchase: "6000001", claimed: Self.alice)], verifier: rows.verifier, write: Self.oneStatement)
        #expect(observed == [nil])
        let stored = try await Self.run([Step(rows: three, purchase: "6000001", claimed: Self.alice)], verifier: rows.verifier) { backend, step in
            try await backend.storeTransaction(step.rows, purchase: step.purchase, claimedCustomer: step.claimed, receivedAt: 1_800_000_000_000,
                                               operation: "storing", afterCommit: { _ in })
        }
        #expect(stored.first??.outcome == .stored(appAccountToken: Self.alice, isNew: true))
        #expect(stored.first??.added?.count == 3)
    }

    /// A notification's outcome in the shape of a transaction's: `.stored` with its customer ("" for
    /// none) and whether it is new.
    static func observed(_ result: StoreWrite.NotificationResult?) -> StoreWrite.TransactionResult? {
        result.map { .init(outcome: .stored(appAccountToken: $0.outcome.appAccountToken ?? "", isNew: $0.outcome.isNew), change: $0.change) }
    }

    @Test("Every outcome of a notification's one statement, the same as the multi-statement transaction's")
    func notifications() async throws {
        let rows = try Rows()
        defer { rows.minted.remove() }
        let (n1, n2, n3) = (try rows.notification(purchase: "7000001"), try rows.notification(purchase: "7000001"), try rows.notification(purchase: "7000001"))
        let (n4, n5) = (try rows.notification(purchase: "8000001"), try rows.notification(purchase: "7000001"))
        let steps = [
            // Its purchase linked to nobody and no customer named: stored for nobody.
            Step(rows: [n1], purchase: "7000001", claimed: nil),
            // A customer named: the purchase is linked to them; it had data, so their state is restored.
            Step(rows: [n2], purchase: "7000001", claimed: Self.alice),
            // Re-sent naming another customer: nothing new, the purchase keeps its customer.
            Step(rows: [n2], purchase: "7000001", claimed: Self.bob),
            // A new one, no customer named: the linked customer's, revision raised.
            Step(rows: [n3], purchase: "7000001", claimed: nil),
            // A new one naming another customer: stored, for the purchase's customer.
            Step(rows: [n5], purchase: "7000001", claimed: Self.bob),
            // A new purchase with no data yet, linked by its first notification.
            Step(rows: [n4], purchase: "8000001", claimed: Self.bob),
        ]
        func id(_ row: SignedDataRow) -> String { row.row.transactionId ?? "?" }
        let expected: [Observed?] = [
            Observed(outcome: .stored(appAccountToken: "", isNew: true), revision: nil, previousRevision: nil, added: nil, storedRows: 1),
            Observed(outcome: .stored(appAccountToken: Self.alice, isNew: true), revision: 1, previousRevision: 0, added: nil, storedRows: 2),
            Observed(outcome: .stored(appAccountToken: Self.alice, isNew: false), revision: nil, previousRevision: nil, added: nil, storedRows: 2),
            Observed(outcome: .stored(appAccountToken: Self.alice, isNew: true), revision: 2, previousRevision: 1, added: [id(n3)], storedRows: 3),
            Observed(outcome: .stored(appAccountToken: Self.alice, isNew: true), revision: 3, previousRevision: 2, added: [id(n5)], storedRows: 4),
            Observed(outcome: .stored(appAccountToken: Self.bob, isNew: true), revision: 1, previousRevision: 0, added: [id(n4)], storedRows: 5),
        ]
        let one = try await Self.run(steps, verifier: rows.verifier) { backend, step in
            Self.observed(try await backend.withLeasedConnection("one statement") { writes in
                try await writes.storeNotificationInOneStatement(step.rows[0], claimedCustomer: step.claimed, receivedAt: 1_800_000_000_000)
            })
        }
        #expect(one == expected)
        let transaction = try await Self.run(steps, verifier: rows.verifier) { backend, step in
            Self.observed(try await backend.storeNotificationInTransaction(step.rows[0], claimedCustomer: step.claimed, refundRequest: nil,
                                                                      receivedAt: 1_800_000_000_000, operation: "in a transaction", afterCommit: { _ in }))
        }
        #expect(transaction == expected)
        // Another transaction linked the purchase while the statement ran: nothing written, fall back.
        let raced = PostgresOneStatementNotification.Answer(customer: nil, newlyLinked: false, hadData: false, inserted: false, revision: nil, raced: true)
        #expect(try PostgresOneStatementNotification.result(of: raced, row: n1) == nil)
    }

    @Test("The same new purchase sent many times at once: stored once, linked once, one revision raised")
    func sameNewPurchaseAtOnce() async throws {
        let rows = try Rows()
        defer { rows.minted.remove() }
        let row = try rows.transaction("9000001", purchase: "9000001")
        let renewal = try rows.renewalInfo(purchase: "9000001", signedDate: MintedData.purchaseDate)
        let database = try await TestDatabase.make(.postgres)
        try await ReceiptStore.withOpened(database.location, verifier: rows.verifier, logger: Logger(label: "test")) { store in
            let backend = try #require(store.backend as? PostgresBackend)
            // Each write that loses the race for the link sees no owner in its statement's
            // snapshot and falls back to the transaction (or, arriving later, finds the link).
            let results = try await withThrowingTaskGroup(of: StoreWrite.TransactionResult.self) { group in
                for _ in 0..<16 {
                    group.addTask {
                        try await backend.storeTransaction([row, renewal], purchase: "9000001", claimedCustomer: Self.alice, receivedAt: 1_800_000_000_000,
                                                           operation: "storing", afterCommit: { _ in })
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.filter { $0.outcome == .stored(appAccountToken: Self.alice, isNew: true) }.count == 1)
            #expect(results.filter { $0.outcome == .stored(appAccountToken: Self.alice, isNew: false) }.count == 15)
            #expect(results.compactMap(\.change).map(\.revision) == [1])
            #expect(try await backend.revision(of: Self.alice) == 1)
            #expect(try await backend.count(of: nil) == 2)
        }
    }

    @Test("An operation that gets no pool connection within the busy timeout fails with LockWaitTimedOut; one that got it runs to its end")
    func leaseDeadline() async throws {
        let rows = try Rows()
        defer { rows.minted.remove() }
        let database = try await TestDatabase.make(.postgres)
        try await ReceiptStore.withOpened(database.location, configuration: StoreConfiguration(postgresMaximumConnections: 1), busyTimeoutMilliseconds: 300,
                                          verifier: rows.verifier, logger: Logger(label: "test")) { store in
            let backend = try #require(store.backend as? PostgresBackend)
            let (held, holding) = AsyncStream<Void>.makeStream()
            let (release, releasing) = AsyncStream<Void>.makeStream()
            // The pool's one connection, held until the second operation has failed.
            async let holder: Int64 = backend.withLeasedConnection("holding the connection") { writes in
                holding.yield()
                for await _ in release { break }
                return try await writes.revision(of: Self.alice)
            }
            for await _ in held { break }
            do {
                _ = try await backend.revision(of: Self.alice)
                Issue.record("an operation got a connection while the pool's only one was held")
            } catch let error as StorageError {
                #expect(error.cause is LockWaitTimedOut, "\(error)")
            }
            releasing.yield()
            #expect(try await holder == 0, "the held operation ran to its end")
            #expect(try await backend.revision(of: Self.alice) == 0)
        }
    }
}
