import Synchronization

/// Tells whoever waits for a change of some state that it changed: the one that changes it calls
/// ``changed()`` after each change; a waiter either waits for the next change after the
/// ``generation`` it read (``waitForChange(after:)``, ``wait(after:timeout:)``) or for a condition
/// over the state, checked now and again at each change (``waitUntil(_:)``). No timer, no polling.
///
/// Used by the metrics (tests and operators wait on them) and by the webhook outbox (its delivery
/// workers wait for a commit that wrote events). ``changed()`` takes a lock: it runs when a
/// connection opens or closes, an event is written or delivered, not per request.
final class ChangeNotice: Sendable {
    private struct State {
        var generation = 0
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter = 0
    }

    private let state = Mutex(State())

    /// Announces a change (call it after the change): wakes every waiter.
    func changed() {
        let waiters = state.withLock { state in
            state.generation += 1
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// The number of changes so far: a wait for a later one returns at once if a change came in
    /// between.
    var generation: Int { state.withLock { $0.generation } }

    /// Returns once `condition` holds, checking it now and after each ``changed()``.
    ///
    /// - Parameter condition: the condition over the state.
    /// - Throws: `CancellationError` when the task is cancelled first.
    func waitUntil(_ condition: () -> Bool) async throws {
        while true {
            let generation = self.generation
            if condition() { return }
            try Task.checkCancellation()
            await waitForChange(after: generation)
        }
    }

    /// Returns at the first change after `generation`, at `timeout`, or on cancellation.
    func wait(after generation: Int, timeout: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await Task.sleep(for: timeout) }
            group.addTask { await self.waitForChange(after: generation) }
            await group.next()
            group.cancelAll()
        }
    }

    /// Returns at the first change after `generation` (at once if one came already), or on cancellation.
    func waitForChange(after generation: Int) async {
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state in
                    if state.generation != generation || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.resume()
        }
    }
}
