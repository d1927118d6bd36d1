import ServiceLifecycle

/// The timer of ``GroupCommitQueue``: fails every waiting write whose deadline (its arrival plus the
/// busy timeout) passed, while the writer is held elsewhere (a lock another process keeps), so a
/// locked database answers every waiting request 503 within the busy timeout, not one at a time.
///
/// A `Service` in the application's `ServiceGroup`: it sleeps until the earliest deadline, or until
/// a write arrives when none waits; it ends on graceful shutdown (the writer fails what is left
/// when it takes it).
struct WriteDeadlineTimer: Service {
    let queue: GroupCommitQueue
    let busyTimeoutMilliseconds: Int

    func run() async {
        await cancelWhenGracefulShutdown {
            while let deadline = await queue.nextDeadline() {
                // Cancelled (graceful shutdown): the next nextDeadline() answers nil.
                try? await Task.sleep(until: deadline, clock: .continuous)
                queue.expire(now: .now, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
            }
        }
    }
}
