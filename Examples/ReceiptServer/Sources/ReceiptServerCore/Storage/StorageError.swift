import PostgresNIO

/// The database failed (locked by another writer for longer than the busy timeout, disk full, I/O
/// error, PostgreSQL unreachable, ...). Nothing was stored; the same request may succeed later, so
/// the server answers 503 with `Retry-After` and Apple retries the notification.
public struct StorageError: Error, Sendable, CustomStringConvertible {
    /// What the store was doing.
    public let operation: String
    /// The underlying database error, as text.
    public let underlying: String
    /// The underlying error itself.
    let cause: (any Error)?

    /// Creates an error for `operation` caused by `underlying`.
    public init(_ operation: String, _ underlying: any Error) {
        self.operation = operation
        if let nested = underlying as? StorageError {
            self.underlying = nested.description
            self.cause = nested.cause
        } else {
            // PSQLError's plain description hides everything; its debug description says what failed.
            self.underlying = underlying is PSQLError ? String(reflecting: underlying) : String(describing: underlying)
            self.cause = underlying
        }
    }

    public var description: String { "The database failed while \(operation): \(underlying)" }
}
