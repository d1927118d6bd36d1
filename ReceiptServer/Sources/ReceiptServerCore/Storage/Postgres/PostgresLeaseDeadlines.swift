import ServiceLifecycle
import Synchronization

/// The deadlines of the operations waiting for a pool connection, watched by one task for all of
/// them: an operation not leased a connection within the busy timeout is cancelled and answered
/// ``LockWaitTimedOut`` (503). Every deadline is the same time after its operation began, so they
/// expire in the order they were added: a FIFO queue, and one sleep until the oldest.
///
/// It replaces a child task per operation sleeping beside the lease (a timer, two child tasks and
/// a task group per query, about 3 % of a POST's CPU on PostgreSQL).
final class PostgresLeaseDeadlines: Service, Sendable {
    /// One operation's lease: waiting (cancelled at its deadline), leased (runs to its end), or
    /// timed out.
    final class Lease: Sendable {
        private enum Phase {
            case waiting
            case leased
            case timedOut
        }
        private let state = Mutex<(phase: Phase, cancel: (@Sendable () -> Void)?)>((.waiting, nil))
        let deadline: ContinuousClock.Instant

        init(deadline: ContinuousClock.Instant) {
            self.deadline = deadline
        }

        /// Called with the connection in hand: false when the deadline passed first (the operation
        /// then gives the connection back without using it).
        func markLeased() -> Bool {
            state.withLock { state in
                guard case .waiting = state.phase else { return false }
                state.phase = .leased
                state.cancel = nil
                return true
            }
        }

        /// Whether the deadline passed before a connection was leased.
        var timedOut: Bool {
            state.withLock { if case .timedOut = $0.phase { true } else { false } }
        }

        /// What cancels the wait when the deadline passes first (at once when it passed already).
        func onTimeout(_ cancel: @escaping @Sendable () -> Void) {
            let cancelNow = state.withLock { state -> Bool in
                switch state.phase {
                case .waiting:
                    state.cancel = cancel
                    return false
                case .leased:
                    return false
                case .timedOut:
                    return true
                }
            }
            if cancelNow { cancel() }
        }

        /// The deadline passed: cancels the wait unless it leased.
        fileprivate func expire() {
            let cancel = state.withLock { state -> (@Sendable () -> Void)? in
                guard case .waiting = state.phase else { return nil }
                state.phase = .timedOut
                let cancel = state.cancel
                state.cancel = nil
                return cancel
            }
            cancel?()
        }
    }

    private struct State {
        var queue: [Lease] = []
        var head = 0
        var idle: CheckedContinuation<Void, Never>?
        var stopped = false
    }

    private let state = Mutex(State())
    let timeout: Duration

    init(milliseconds: Int) {
        timeout = .milliseconds(milliseconds)
    }

    /// A lease whose deadline is the busy timeout from now, watched from now on.
    func begin() -> Lease {
        let lease = Lease(deadline: .now + timeout)
        let idle = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.queue.append(lease)
            let idle = state.idle
            state.idle = nil
            return idle
        }
        idle?.resume()
        return lease
    }

    /// Expires each lease at its deadline until the service group shuts down.
    func run() async {
        await cancelWhenGracefulShutdown {
            await self.watch()
        }
        let idle = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.stopped = true
            let idle = state.idle
            state.idle = nil
            return idle
        }
        idle?.resume()
    }

    private func watch() async {
        while !Task.isCancelled {
            let now = ContinuousClock.now
            let (expired, next) = state.withLock { state -> ([Lease], ContinuousClock.Instant?) in
                var expired: [Lease] = []
                while state.head < state.queue.count, state.queue[state.head].deadline <= now {
                    expired.append(state.queue[state.head])
                    state.head += 1
                }
                // Drop the expired prefix now and then, not on every pass.
                if state.head > 1024, state.head * 2 > state.queue.count {
                    state.queue.removeFirst(state.head)
                    state.head = 0
                }
                return (expired, state.head < state.queue.count ? state.queue[state.head].deadline : nil)
            }
            for lease in expired { lease.expire() }
            if let next {
                try? await Task.sleep(until: next, clock: .continuous)
            } else {
                await withTaskCancellationHandler {
                    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                        let resumeNow = state.withLock { state -> Bool in
                            if state.stopped || state.head < state.queue.count { return true }
                            state.idle = continuation
                            return false
                        }
                        if resumeNow { continuation.resume() }
                    }
                } onCancel: {
                    let idle = state.withLock { state -> CheckedContinuation<Void, Never>? in
                        state.stopped = true
                        let idle = state.idle
                        state.idle = nil
                        return idle
                    }
                    idle?.resume()
                }
            }
        }
    }
}
