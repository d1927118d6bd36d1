import Synchronization

/// Something a test waits on that changes at known moments (a request arriving at a receiver,
/// bytes arriving on a connection): whoever changes it calls ``changed()``, and a waiter re-checks
/// its condition at each change instead of polling. Bound a wait with ``within(_:_:_:)``.
final class ChangeSignal: Sendable {
    private let state = Mutex<(generation: Int, waiting: [CheckedContinuation<Void, Never>])>((0, []))

    /// Wakes every waiter to re-check its condition.
    func changed() {
        let waiting = state.withLock { state in
            state.generation += 1
            defer { state.waiting = [] }
            return state.waiting
        }
        waiting.forEach { $0.resume() }
    }

    /// Returns once `condition` holds, checking it now and after each change.
    func waitUntil(_ condition: () -> Bool) async {
        while true {
            let generation = state.withLock { $0.generation }
            if condition() { return }
            await withCheckedContinuation { continuation in
                // A change since the check wakes at once.
                let missed = state.withLock { state in
                    if state.generation != generation { return true }
                    state.waiting.append(continuation)
                    return false
                }
                if missed { continuation.resume() }
            }
        }
    }
}
