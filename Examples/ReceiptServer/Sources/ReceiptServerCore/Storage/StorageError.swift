/// The database failed (locked by another writer for longer than the busy timeout, disk full, I/O
/// error, ...). Nothing was stored; the same request may succeed later, so the server answers
/// 503 and Apple retries the notification.
public struct StorageError: Error, Sendable, CustomStringConvertible {
    /// What the store was doing.
    public let operation: String
    /// The underlying SQLite error, as text.
    public let underlying: String

    /// Creates an error for `operation` caused by `underlying`.
    public init(_ operation: String, _ underlying: any Error) {
        self.operation = operation
        self.underlying = String(describing: underlying)
    }

    public var description: String { "The database failed while \(operation): \(underlying)" }
}
