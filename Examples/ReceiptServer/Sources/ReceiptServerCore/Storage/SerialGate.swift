/// Runs async operations one at a time, in arrival order.
///
/// SQLite allows one writer; a write here is several statements (`BEGIN IMMEDIATE` … `COMMIT`) on one
/// connection, each an `await`. An actor alone would interleave two requests' statements at those
/// suspension points, so writers pass through this gate instead.
actor SerialGate {
    private var busy = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// Runs `operation` once every operation that entered before it has finished.
    nonisolated func run<T: Sendable>(_ operation: @Sendable () async throws -> T) async throws -> T {
        await enter()
        do {
            let value = try await operation()
            await leave()
            return value
        } catch {
            await leave()
            throw error
        }
    }

    private func enter() async {
        if busy {
            await withCheckedContinuation { waiters.append($0) }
        } else {
            busy = true
        }
    }

    private func leave() {
        if waiters.isEmpty {
            busy = false
        } else {
            // Ownership passes straight to the next waiter; `busy` stays true.
            waiters.removeFirst().resume()
        }
    }
}
