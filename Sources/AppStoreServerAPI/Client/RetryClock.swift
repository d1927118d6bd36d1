/// What the client measures its deadline with and waits on between attempts (backoff and
/// `Retry-After`): the system's continuous clock, or a test's, which waits no real time.
package protocol RetryClock: Sendable {
    /// The time elapsed since a fixed start of the clock's choosing.
    var elapsed: Duration { get }
    /// Waits `duration`, or throws `CancellationError` when the calling task is cancelled.
    func sleep(for duration: Duration) async throws
}

/// The system's continuous clock: what every client uses unless a test gives another.
package struct ContinuousRetryClock: RetryClock {
    private let start = ContinuousClock.now

    package init() {}

    package var elapsed: Duration { ContinuousClock.now - start }

    package func sleep(for duration: Duration) async throws {
        try await Task.sleep(for: duration)
    }
}
