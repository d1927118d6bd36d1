import Synchronization

/// A fixed set of connections, lent to one user at a time; a borrower waits while all are lent.
final class ConnectionPool<Connection: Sendable>: Sendable {
    private struct State {
        var idle: [Connection]
        var waiters: [CheckedContinuation<Connection, Never>] = []
    }

    private let state: Mutex<State>
    /// Every connection of the pool.
    let all: [Connection]

    /// A pool of `connections`.
    init(_ connections: [Connection]) {
        all = connections
        state = Mutex(State(idle: connections))
    }

    /// Runs `body` with a connection of the pool, waiting for one when all are lent.
    func withConnection<T: Sendable>(_ body: (Connection) async throws -> T) async throws -> T {
        let connection = await acquire()
        defer { release(connection) }
        return try await body(connection)
    }

    private func acquire() async -> Connection {
        if let connection = state.withLock({ $0.idle.popLast() }) { return connection }
        return await withCheckedContinuation { continuation in
            let ready: Connection? = state.withLock { state in
                if let connection = state.idle.popLast() { return connection }
                state.waiters.append(continuation)
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    private func release(_ connection: Connection) {
        let waiter: CheckedContinuation<Connection, Never>? = state.withLock { state in
            if state.waiters.isEmpty {
                state.idle.append(connection)
                return nil
            }
            return state.waiters.removeFirst()
        }
        waiter?.resume(returning: connection)
    }
}
