import Foundation

/// Runs blocking work on a thread of its own, off Swift's cooperative thread pool, and awaits its
/// result.
///
/// Cancelling the calling task sets the work's ``CancellationFlag`` and throws `CancellationError`
/// at once; the work sees the flag at its next check, cleans up and ends (its result is dropped).
/// The continuation is resumed exactly once, by whichever comes first.
enum DedicatedThread {
    /// The value of `work`, run on a new thread named `name`.
    static func run<T: Sendable>(named name: String, _ work: @escaping @Sendable (CancellationFlag) throws -> T) async throws -> T {
        let flag = CancellationFlag()
        let outcome = Outcome<T>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                guard outcome.install(continuation) else { return }  // already cancelled
                let thread = Thread {
                    let result = Result { try work(flag) }
                    outcome.resume(with: result)
                }
                thread.name = name
                thread.start()
            }
        } onCancel: {
            flag.cancel()
            outcome.resume(with: .failure(CancellationError()))
        }
    }

    /// The first result wins; the continuation is resumed exactly once.
    private final class Outcome<T: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var continuation: CheckedContinuation<T, any Error>?
        private var early: Result<T, any Error>?
        private var finished = false

        /// Keeps `continuation` for the result; false (after resuming it) when there already is
        /// one, so that the work need not start.
        func install(_ continuation: CheckedContinuation<T, any Error>) -> Bool {
            let result: Result<T, any Error>? = lock.withLock {
                if let early { return early }
                self.continuation = continuation
                return nil
            }
            guard let result else { return true }
            continuation.resume(with: result)
            return false
        }

        func resume(with result: Result<T, any Error>) {
            let waiting: CheckedContinuation<T, any Error>? = lock.withLock {
                guard !finished else { return nil }
                finished = true
                guard let waiting = continuation else {
                    early = result
                    return nil
                }
                continuation = nil
                return waiting
            }
            waiting?.resume(with: result)
        }
    }
}
