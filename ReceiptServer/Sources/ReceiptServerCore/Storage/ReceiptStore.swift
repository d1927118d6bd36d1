import AppStoreVerification
import Foundation
import Logging
import ServiceLifecycle

/// The server's database: every verified JWS it accepted, what each one counts for (the
/// entitlement engine's records, computed once when it was verified), and which customer
/// (`appAccountToken`) each purchase (`originalTransactionId`) belongs to. SQLite (a file, the
/// default) or PostgreSQL (``StoreLocation``), with the same tables (``SchemaMigrations``).
///
/// - A POST stores what it verified; a GET verifies nothing: it restores the customer's engine from
///   the stored records (or uses the one this process holds, while the customer's revision in the
///   database says it is current; ``CustomerStateCache``).
/// - Signed data joins a customer through its purchase, so a notification that arrives before the
///   app sends the purchase (or that carries no `appAccountToken`) counts for the customer as soon
///   as the purchase is linked.
/// - The same JWS sent twice is stored once (unique SHA-256), however many server processes share
///   the database.
/// - Stored JWS are verified again only by ``reverify(with:now:)`` (`ReceiptServer reverify`,
///   after the trusted roots changed).
public final class ReceiptStore: Sendable {
    let backend: any StoreBackend
    let cache: CustomerStateCache
    let engineConfiguration: EntitlementEngine.Configuration

    private init(backend: any StoreBackend, cache: CustomerStateCache, engineConfiguration: EntitlementEngine.Configuration) {
        self.backend = backend
        self.cache = cache
        self.engineConfiguration = engineConfiguration
    }

    /// Opens (creating or upgrading if needed) the database.
    ///
    /// - Parameters:
    ///   - location: a SQLite file path, `sqlite:PATH`, or `postgres://user[:password]@host[:port]/database`.
    ///   - configuration: connections and cache sizes.
    ///   - busyTimeoutMilliseconds: how long a write waits for the database before failing with a
    ///     ``StorageError`` (answered 503).
    ///   - verifier: verifies stored JWS once when an older database is upgraded.
    ///   - engineConfiguration: the entitlement engine's settings.
    ///   - logger: the database's logger.
    /// - Throws: ``StorageError`` when the database cannot be opened or upgraded, or was written by a
    ///   newer schema.
    public static func open(
        _ location: String, configuration: StoreConfiguration = StoreConfiguration(), busyTimeoutMilliseconds: Int = 5000,
        verifier: SignedDataVerifier, engineConfiguration: EntitlementEngine.Configuration = .init(), webhooks: WebhookOutbox? = nil, logger: Logger
    ) async throws(StorageError) -> ReceiptStore {
        let parsed: StoreLocation
        do {
            parsed = try StoreLocation(location)
        } catch {
            throw StorageError("reading the database location", error)
        }
        let backend: any StoreBackend
        switch parsed {
        case .sqlite(let path):
            backend = try SQLiteBackend.open(
                path: path, readerCount: configuration.readerConnections, busyTimeoutMilliseconds: busyTimeoutMilliseconds, webhooks: webhooks, logger: logger)
        case .postgres(let postgres):
            backend = try PostgresBackend.open(
                postgres, maximumConnections: configuration.postgresMaximumConnections,
                busyTimeoutMilliseconds: busyTimeoutMilliseconds, webhooks: webhooks, logger: logger)
        }
        do {
            try await backend.migrate(now: UnixMilliseconds.of(Date())) { kind, jws, name in
                try VerifiedRecords.verifying(kind, jws: jws, name: name, verifier: verifier)
            }
        } catch {
            await backend.closeAtStart()
            throw error
        }
        return ReceiptStore(backend: backend, cache: CustomerStateCache(capacity: configuration.cachedCustomers), engineConfiguration: engineConfiguration)
    }

    /// Counts what the database writes into `metrics` from now on (SQLite:
    /// `receipt_server_sqlite_wal_bytes_total`).
    func recordWrites(into metrics: ServerMetrics) {
        backend.recordWrites(into: metrics)
    }

    /// What must run while the store is used: SQLite's writer and its deadline timer, or the
    /// PostgreSQL connection pool. The server adds them to its application's `ServiceGroup`
    /// (before the HTTP server, so they stop after it); they close the database when they end.
    public var services: [any Service] { backend.services }

    /// Opens the store, runs its ``services`` in a `ServiceGroup` of their own while `body` uses
    /// it, then shuts them down gracefully (the database closes): for tools and tests that use a
    /// store without a server (`ReceiptServer --reverify`).
    ///
    /// - Throws: ``StorageError`` when the database cannot be opened, or what `body` or the
    ///   services throw.
    public static func withOpened<T: Sendable>(
        _ location: String, configuration: StoreConfiguration = StoreConfiguration(), busyTimeoutMilliseconds: Int = 5000,
        verifier: SignedDataVerifier, engineConfiguration: EntitlementEngine.Configuration = .init(), logger: Logger,
        _ body: (ReceiptStore) async throws -> T
    ) async throws -> T {
        let store = try await open(location, configuration: configuration, busyTimeoutMilliseconds: busyTimeoutMilliseconds,
                                   verifier: verifier, engineConfiguration: engineConfiguration, logger: logger)
        let group = ServiceGroup(configuration: .init(services: store.services, logger: logger))
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            let value: T
            do {
                value = try await body(store)
            } catch {
                await group.triggerGracefulShutdown()
                try? await tasks.waitForAll()
                throw error
            }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
            return value
        }
    }

    // MARK: Writes

    /// What storing a transaction did.
    public enum TransactionOutcome: Sendable, Equatable {
        /// The transaction is stored (now, or already before: `isNew` is false for a re-send) and its
        /// purchase belongs to `appAccountToken`.
        case stored(appAccountToken: String, isNew: Bool)
        /// Neither the transaction nor the request named a customer, and its purchase is linked to
        /// none yet. Nothing was stored.
        case noCustomer
        /// The purchase is already linked to another customer. Nothing was stored.
        case conflict(linkedTo: String)
    }

    /// Stores a verified transaction (and, when given, verified renewal info of the same purchase)
    /// for the customer `appAccountToken` (or for the customer its purchase is already linked to,
    /// when `nil`), in one database transaction.
    ///
    /// - Returns: `.stored` with `isNew` true when any of the JWS was not stored before.
    /// - Throws: ``StorageError`` on a database failure; nothing is stored then.
    public func storeTransaction(_ item: VerifiedSignedData, with others: [VerifiedSignedData] = [], appAccountToken: String?, receivedAt: Int64) async throws(StorageError) -> TransactionOutcome {
        guard let purchase = item.row.originalTransactionId else { return .noCustomer }
        let operation = "storing a transaction"
        let rows = try Self.prepare([item] + others, operation: operation)
        let cache = self.cache
        return try await backend.storeTransaction(rows, purchase: purchase, claimedCustomer: appAccountToken, receivedAt: receivedAt, operation: operation) { result in
            if let change = result.change { cache.apply(change) }
        }.outcome
    }

    /// What storing a notification did.
    public struct NotificationOutcome: Sendable, Equatable {
        /// Whether this JWS was stored now (false: Apple re-sent one already stored).
        public var isNew: Bool
        /// The customer the notification's purchase belongs to, when known.
        public var appAccountToken: String?
    }

    /// Stores a verified notification. When it names a customer and its purchase is linked to none
    /// yet, links it; a purchase already linked keeps its customer.
    ///
    /// - Throws: ``StorageError`` on a database failure; nothing is stored then.
    public func storeNotification(_ item: VerifiedSignedData, appAccountToken: String?, receivedAt: Int64) async throws(StorageError) -> NotificationOutcome {
        try await storeNotification(item, appAccountToken: appAccountToken, refundRequest: nil, receivedAt: receivedAt)
    }

    /// Stores a verified notification and, in the same database transaction, the pending answer to
    /// it when it is a refund request (`refundRequest`, `RefundRequests/`).
    func storeNotification(_ item: VerifiedSignedData, appAccountToken: String?, refundRequest: RefundRequestRow?, receivedAt: Int64) async throws(StorageError) -> NotificationOutcome {
        let operation = "storing a notification"
        let rows = try Self.prepare([item], operation: operation)
        let cache = self.cache
        return try await backend.storeNotification(rows[0], claimedCustomer: appAccountToken, refundRequest: refundRequest, receivedAt: receivedAt, operation: operation) { result in
            if let change = result.change { cache.apply(change) }
        }.outcome
    }

    /// The rows to insert: hashes, records and rejections computed before the write transaction.
    private static func prepare(_ items: [VerifiedSignedData], operation: String) throws(StorageError) -> [SignedDataRow] {
        do {
            return try items.map { item in
                let name = VerifiedRecords.name(of: item.row.kind, transactionId: item.row.transactionId, notificationUUID: item.row.notificationUUID, originalTransactionId: item.row.originalTransactionId)
                return try SignedDataRow(row: item.row, records: try VerifiedRecords.of(item.item, name: name), item: item.item)
            }
        } catch {
            throw StorageError("\(operation) (encoding its records)", error)
        }
    }

    // MARK: Reads

    /// The customer's engine and rejections: from this process's cache while the customer's
    /// revision says it is current, else restored from the stored records. Verifies nothing.
    ///
    /// - Throws: ``StorageError`` on a database failure.
    func customerState(of customer: String) async throws(StorageError) -> CustomerState {
        let revision = try await backend.revision(of: customer)
        if let cached = cache.state(of: customer, at: revision) { return cached }
        cache.beginRestore(of: customer)
        let state: CustomerState
        do {
            state = try await restoredState(of: customer)
        } catch {
            cache.endRestore(of: customer)
            throw error
        }
        if state.revision > 0 { cache.keep(state, of: customer) } else { cache.endRestore(of: customer) }
        return state
    }

    /// The customer's state read from the database alone (no cache).
    func restoredState(of customer: String) async throws(StorageError) -> CustomerState {
        let (revision, records) = try await backend.records(of: customer)
        do {
            let history = try VerifiedRecords.history(of: records)
            return CustomerState(
                revision: revision, engine: EntitlementEngine(configuration: engineConfiguration, history: history),
                rejected: records.flatMap(\.rejections))
        } catch {
            throw StorageError("reading a customer's records", error)
        }
    }

    /// The customer's history as stored (the engine's input), read from the database.
    ///
    /// - Throws: ``StorageError`` on a database failure.
    public func history(forCustomer appAccountToken: String) async throws(StorageError) -> CustomerHistory {
        try await restoredState(of: appAccountToken).engine.history
    }

    /// Every stored JWS of the customer's purchases, oldest first (for recomputation from scratch).
    ///
    /// - Throws: ``StorageError`` on a database failure.
    public func signedData(forCustomer appAccountToken: String) async throws(StorageError) -> [StoredSignedData] {
        try await backend.signedData(forCustomer: appAccountToken)
    }

    /// The latest `signedDate` of a stored notification, in milliseconds since 1970, or `nil` when
    /// none is stored: where the notification backfill starts.
    ///
    /// - Throws: ``StorageError`` on a database failure.
    public func lastNotificationSignedDate() async throws(StorageError) -> Int64? {
        try await backend.lastNotificationSignedDate()
    }

    /// Whether a notification with `notificationUUID` is stored.
    ///
    /// - Throws: ``StorageError`` on a database failure.
    public func hasNotification(uuid notificationUUID: String) async throws(StorageError) -> Bool {
        try await backend.hasNotification(uuid: notificationUUID)
    }

    /// How many JWS are stored, in all or of one kind (for operators and tests).
    ///
    /// - Throws: ``StorageError`` on a database failure.
    public func count(of kind: SignedDataKind? = nil) async throws(StorageError) -> Int {
        try await backend.count(of: kind)
    }

    // MARK: Re-verification

    /// What ``reverify(with:now:)`` did.
    public struct ReverificationReport: Sendable, Equatable {
        /// Stored JWS verified again.
        public var checked = 0
        /// Those whose records or rejections changed.
        public var changed = 0
        /// Those that now carry a rejection.
        public var rejected = 0
        /// Customers whose answers may have changed.
        public var customers = 0
    }

    /// Verifies every stored JWS again with `verifier` (after the trusted roots or the app's settings
    /// changed) and stores its new records; customers with a changed row get a new revision, so every
    /// server process answers from the new records. Runs in batches beside a serving server.
    ///
    /// - Throws: ``StorageError`` on a database failure; batches committed before it stay.
    public func reverify(with verifier: SignedDataVerifier, now: Int64) async throws(StorageError) -> ReverificationReport {
        var report = ReverificationReport()
        var last: Int64 = -1
        var customers = Set<String>()
        while true {
            let batch = try await backend.reverify(after: last, limit: 200, now: now) { kind, jws, name in
                try VerifiedRecords.verifying(kind, jws: jws, name: name, verifier: verifier)
            }
            report.checked += batch.report.checked
            report.changed += batch.report.changed
            report.rejected += batch.report.rejected
            customers.formUnion(batch.customers)
            guard let next = batch.lastId else { break }
            last = next
        }
        report.customers = customers.count
        cache.removeAll()
        return report
    }
}

/// A JWS the server verified, with its verification result, ready to store.
public struct VerifiedSignedData: Sendable {
    /// The row to store.
    public var row: StoredSignedData
    /// The verified value, as the entitlement engine ingests it.
    public var item: EntitlementEngine.Item

    /// Pairs a row with its verified value.
    public init(row: StoredSignedData, item: EntitlementEngine.Item) {
        self.row = row
        self.item = item
    }
}
