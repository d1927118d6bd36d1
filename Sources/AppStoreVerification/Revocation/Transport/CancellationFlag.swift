import Foundation

/// A flag that an async task's cancellation handler sets and blocking work on another thread reads
/// between its waits.
final class CancellationFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false

    /// Sets the flag (for good).
    func cancel() {
        lock.withLock { cancelled = true }
    }

    /// Whether ``cancel()`` was called.
    var isCancelled: Bool {
        lock.withLock { cancelled }
    }
}
