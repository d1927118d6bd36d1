import Foundation

/// Runs async work with a hard time limit that does not depend on the work cooperating.
///
/// A task group would wait for its children on exit, so a transport that ignores cancellation could
/// still hold the caller; here the work runs in its own task, the caller resumes at the deadline
/// whatever the work does, and the work is cancelled then.
enum Deadline {
    /// The value of `operation`, or `onTimeout(false)` when it has not finished within `limit`, or
    /// `onTimeout(true)` when the calling task is cancelled first.
    static func run<T: Sendable>(within limit: Duration, _ operation: @escaping @Sendable () async -> T, onTimeout: @escaping @Sendable (_ cancelled: Bool) -> T) async -> T {
        let race = Race<T>()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<T, Never>) in
                race.install(continuation)
                let work = Task { race.finish(await operation()) }
                let timer = Task {
                    do { try await Task.sleep(for: limit) } catch { return }
                    race.finish(onTimeout(false))
                }
                race.onFinish { work.cancel(); timer.cancel() }
            }
        } onCancel: {
            // Runs in the cancelling context, where `Task.isCancelled` says nothing about this task.
            race.finish(onTimeout(true))
        }
    }

    /// The first of several results wins; the continuation is resumed exactly once.
    private final class Race<T: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var continuation: CheckedContinuation<T, Never>?
        private var result: T?
        private var cleanup: (@Sendable () -> Void)?
        private var finished = false

        func install(_ continuation: CheckedContinuation<T, Never>) {
            let early: T? = lock.withLock {
                if let result { return result }
                self.continuation = continuation
                return nil
            }
            if let early { continuation.resume(returning: early) }
        }

        func onFinish(_ action: @escaping @Sendable () -> Void) {
            let runNow: Bool = lock.withLock {
                if finished { return true }
                cleanup = action
                return false
            }
            if runNow { action() }
        }

        func finish(_ value: T) {
            let (waiting, action): (CheckedContinuation<T, Never>?, (@Sendable () -> Void)?) = lock.withLock {
                guard !finished else { return (nil, nil) }
                finished = true
                result = value
                let waiting = continuation
                continuation = nil
                let action = cleanup
                cleanup = nil
                return (waiting, action)
            }
            waiting?.resume(returning: value)
            action?()
        }
    }
}
