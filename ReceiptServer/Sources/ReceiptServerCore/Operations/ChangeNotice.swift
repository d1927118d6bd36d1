import Synchronization

/// Tells whoever waits for a condition over some state that the state changed: the one that
/// changes it calls ``changed()`` after each change; a waiter checks its condition now and again
/// at each change (no timer, no polling).
///
/// ``changed()`` costs a memory fence and a relaxed load while nobody waits: the fences on both
/// sides make sure that a waiter that registered after the change's load sees the change in its
/// check (a change is never missed), without a lock on the changing path.
final class ChangeNotice: Sendable {
    private struct State {
        var generation = 0
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter = 0
    }

    private let state = Mutex(State())
    /// How many ``waitUntil(_:)`` calls run.
    private let waiting = Atomic<Int>(0)

    /// Announces a change (call it after the change): wakes every waiter to check its condition again.
    func changed() {
        atomicMemoryFence(ordering: .sequentiallyConsistent)
        guard waiting.load(ordering: .relaxed) > 0 else { return }
        let waiters = state.withLock { state in
            state.generation += 1
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once `condition` holds, checking it now and after each ``changed()``.
    ///
    /// - Parameter condition: the condition over the state.
    /// - Throws: `CancellationError` when the task is cancelled first.
    func waitUntil(_ condition: () -> Bool) async throws {
        waiting.wrappingAdd(1, ordering: .relaxed)
        defer { waiting.wrappingSubtract(1, ordering: .relaxed) }
        atomicMemoryFence(ordering: .sequentiallyConsistent)
        while true {
            let generation = state.withLock { $0.generation }
            if condition() { return }
            try Task.checkCancellation()
            await waitForChange(after: generation)
        }
    }

    /// Returns at the first change after `generation` (at once if one came already), or on cancellation.
    private func waitForChange(after generation: Int) async {
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
