import ServiceLifecycle

/// A database the store runs on: SQLite (``SQLiteBackend``) or PostgreSQL (``PostgresBackend``).
/// The store's SQL (``StoreSQL``) is the same for both; a backend runs it in transactions.
///
/// Its long-running parts (SQLite's writer and its deadline timer, PostgreSQL's connection pool)
/// are ``services``, run in the application's `ServiceGroup`; ``write(_:_:afterCommit:)`` and
/// ``read(_:_:)`` need them running. They close the database when they end.
protocol StoreBackend: Sendable {
    /// Which SQL the database speaks.
    var dialect: SQLDialect { get }

    /// The services that must run while the store is used, in start order.
    var services: [any Service] { get }

    /// Runs `work` in one write transaction before the services run: the schema migration at start.
    ///
    /// - Throws: ``StorageError`` when the database fails or `work` throws; nothing is kept then.
    func writeAtStart<T: Sendable>(_ operation: String, _ work: @escaping @Sendable (any SQLSession) async throws -> T) async throws(StorageError) -> T

    /// Closes what ``writeAtStart(_:_:)`` needed, when the store is abandoned before its services
    /// ever run (a failed migration).
    func closeAtStart() async

    /// Runs `work` in a write transaction and returns once it committed; `afterCommit` runs with its
    /// value right after the commit, in commit order, before this returns. When `work` throws,
    /// nothing it wrote is kept.
    ///
    /// - Throws: ``StorageError`` when the database fails, is locked for longer than the busy
    ///   timeout, or `work` throws.
    func write<T: Sendable>(
        _ operation: String, _ work: @escaping @Sendable (any SQLSession) async throws -> T,
        afterCommit: @escaping @Sendable (T) -> Void
    ) async throws(StorageError) -> T

    /// Runs `work` on a reading connection; reads never wait behind writes.
    ///
    /// - Throws: ``StorageError`` when the database fails or `work` throws.
    func read<T: Sendable>(_ operation: String, _ work: @escaping @Sendable (any SQLSession) async throws -> T) async throws(StorageError) -> T
}
