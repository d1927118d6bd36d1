import NIOConcurrencyHelpers

/// How many connections each client address has open, shared by every connection's
/// ``PerAddressConnectionLimitHandler``.
final class ConnectionsPerAddress: Sendable {
    private let counts = NIOLockedValueBox<[String: Int]>([:])
    /// The most connections one address may have open.
    let limit: Int

    /// - Parameter limit: the most connections one address may have open.
    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Counts a new connection from `key`; `false` (and nothing counted) when `key` is at the limit.
    func open(_ key: String) -> Bool {
        counts.withLockedValue { counts in
            let current = counts[key, default: 0]
            guard current < limit else { return false }
            counts[key] = current + 1
            return true
        }
    }

    /// Counts a connection from `key` closed.
    func close(_ key: String) {
        counts.withLockedValue { counts in
            let remaining = counts[key, default: 0] - 1
            counts[key] = remaining > 0 ? remaining : nil
        }
    }

    /// The connections `key` has open.
    func count(of key: String) -> Int {
        counts.withLockedValue { $0[key, default: 0] }
    }
}
