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
            self.underlying = Self.text(of: underlying)
            self.cause = underlying
        }
    }

    public var description: String { "The database failed while \(operation): \(underlying)" }

    /// PSQLError's plain description hides everything and its debug description carries the whole
    /// query: say the server's SQLSTATE and message, or the client-side code and cause.
    private static func text(of error: any Error) -> String {
        guard let error = error as? PSQLError else { return String(describing: error) }
        if let message = error.serverInfo?[.message] {
            return "PostgreSQL \(error.serverInfo?[.sqlState] ?? "error"): \(message)"
        }
        return "PostgreSQL client: \(error.code)" + (error.underlying.map { " (\($0))" } ?? "")
    }
}
