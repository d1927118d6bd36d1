/// A database the store runs on: SQLite (``SQLiteBackend``) or PostgreSQL (``PostgresBackend``).
/// The store's SQL (``StoreSQL``) is the same for both; a backend runs it in transactions.
protocol StoreBackend: Sendable {
    /// Which SQL the database speaks.
    var dialect: SQLDialect { get }

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

    /// Closes every connection. Call once, after the last request.
    func close() async throws(StorageError)
}
