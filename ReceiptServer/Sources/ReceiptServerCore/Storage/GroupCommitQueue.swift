import Synchronization

/// The writes waiting for SQLite's one writer connection. The writer takes every waiting write at
/// once and runs them in one transaction (group commit: one fsync for the lot, each write in its own
/// savepoint so that one failing keeps the others). A write still waiting when its deadline (its
/// arrival plus the busy timeout) passes fails with a ``StorageError``, so a database locked by
/// another process answers every waiting request 503 within the busy timeout, not one at a time.
final class GroupCommitQueue: Sendable {
    /// One waiting write.
    struct Job: Sendable {
        /// When the request stops waiting.
        let deadline: ContinuousClock.Instant
        /// What it does (for errors).
        let operation: String
        /// Runs the write; the closure it returns delivers the result once the transaction committed.
        let run: @Sendable (any SQLSession) async throws -> @Sendable () -> Void
        /// Delivers a failure; nothing of the write was kept.
        let fail: @Sendable (StorageError) -> Void
    }

    private struct State {
        var pending: [Job] = []
        var writer: CheckedContinuation<Void, Never>?
        var timer: CheckedContinuation<Void, Never>?
        var timerCancelled = false
        var closed = false
    }

    private let state = Mutex(State())

    /// Adds a write; fails it at once when the queue is closed.
    func enqueue(_ job: Job) {
        let (waiters, refused): ([CheckedContinuation<Void, Never>], Bool) = state.withLock { state in
            if state.closed { return ([], true) }
            state.pending.append(job)
            let waiters = [state.writer, state.timer].compactMap { $0 }
            state.writer = nil
            state.timer = nil
            return (waiters, false)
        }
        if refused {
            job.fail(StorageError(job.operation, Closed()))
        }
        for waiter in waiters { waiter.resume() }
    }

    /// The writer's next batch (at most `limit` writes), waiting while there is none; `nil` once the
    /// queue is closed and empty.
    func nextBatch(limit: Int) async -> [Job]? {
        while true {
            enum Step { case batch([Job]), finished, wait }
            let step: Step = state.withLock { state in
                if !state.pending.isEmpty {
                    let batch = Array(state.pending.prefix(limit))
                    state.pending.removeFirst(batch.count)
                    return .batch(batch)
                }
                return state.closed ? .finished : .wait
            }
            switch step {
            case .batch(let batch): return batch
            case .finished: return nil
            case .wait:
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let resumeNow = state.withLock { state in
                        if !state.pending.isEmpty || state.closed { return true }
                        state.writer = continuation
                        return false
                    }
                    if resumeNow { continuation.resume() }
                }
            }
        }
    }

    /// The earliest deadline of a waiting write, waiting while none waits; `nil` once the queue is
    /// closed (the writer fails what is left when it takes it) or the calling task is cancelled.
    /// One caller at a time (``WriteDeadlineTimer``).
    func nextDeadline() async -> ContinuousClock.Instant? {
        await withTaskCancellationHandler {
            await waitForDeadline()
        } onCancel: {
            let timer: CheckedContinuation<Void, Never>? = state.withLock { state in
                state.timerCancelled = true
                let timer = state.timer
                state.timer = nil
                return timer
            }
            timer?.resume()
        }
    }

    private func waitForDeadline() async -> ContinuousClock.Instant? {
        while true {
            enum Step { case deadline(ContinuousClock.Instant), finished, wait }
            let step: Step = state.withLock { state in
                if state.closed || state.timerCancelled { return .finished }
                if let first = state.pending.first { return .deadline(first.deadline) }
                return .wait
            }
            switch step {
            case .deadline(let deadline): return deadline
            case .finished: return nil
            case .wait:
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let resumeNow = state.withLock { state in
                        if !state.pending.isEmpty || state.closed || state.timerCancelled { return true }
                        state.timer = continuation
                        return false
                    }
                    if resumeNow { continuation.resume() }
                }
            }
        }
    }

    /// Fails every waiting write whose deadline has passed.
    func expire(now: ContinuousClock.Instant, busyTimeoutMilliseconds: Int) {
        let expired: [Job] = state.withLock { state in
            let expired = state.pending.filter { $0.deadline <= now }
            if !expired.isEmpty { state.pending.removeAll { $0.deadline <= now } }
            return expired
        }
        for job in expired {
            job.fail(StorageError(job.operation, LockWaitTimedOut(milliseconds: busyTimeoutMilliseconds)))
        }
    }

    /// Stops taking writes; the writer finishes those waiting, then `nextBatch` returns `nil`.
    func close() {
        let waiters: [CheckedContinuation<Void, Never>] = state.withLock { state in
            state.closed = true
            let waiters = [state.writer, state.timer].compactMap { $0 }
            state.writer = nil
            state.timer = nil
            return waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// The store is closed.
    struct Closed: Error, CustomStringConvertible {
        var description: String { "the store is closed (the server is shutting down); retry against a running server" }
    }
}

/// A write waited longer than the busy timeout for the database.
struct LockWaitTimedOut: Error, CustomStringConvertible {
    let milliseconds: Int
    var description: String {
        "the database stayed busy (locked by another writer, or behind earlier writes) for the busy timeout of \(milliseconds) ms; retry, or raise --busy-timeout"
    }
}
