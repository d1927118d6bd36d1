import Foundation

/// The time this package reads: the wall-clock instant ``now`` and the ``clock`` it waits on.
///
/// Every part that depends on time takes one, ``system`` unless you pass another:
/// - the verifiers (``SignedDataVerifier/Configuration/clock``): JWT registered claims (`exp`,
///   `nbf`, `iat`), certificates checked "now", and online, whether an OCSP response and a cached
///   answer are still current (judged in whole seconds);
/// - the App Store Server API client (its initializer's `clock:`): bearer tokens' `iat`, the instant a
///   `Retry-After` names, the deadline, pacing and the waits between attempts.
///
/// Tests pass a clock they move by hand, such as `AppStoreClock.manual(ManualClock())` from
/// AppStoreVerificationTesting, so that expiry, backoff and caching are tested without waiting.
///
/// ```swift
/// var configuration = SignedDataVerifier.Configuration(bundleId: "com.example.app", environment: .sandbox)
/// configuration.clock = AppStoreClock(now: { Date(timeIntervalSince1970: 1_750_000_000) }, clock: ContinuousClock())
/// ```
public struct AppStoreClock: Sendable {
    /// The clock waits are made on and durations measured with (deadlines, backoff, pacing): the
    /// system's `ContinuousClock` for ``system``.
    public let clock: any Clock<Duration>
    private let wallClock: @Sendable () -> Date
    private let sleeper: @Sendable (Duration) async throws -> Void
    private let startStopwatch: @Sendable () -> @Sendable () -> Duration

    /// A clock reading the wall-clock instant from `now` and waiting on `clock`.
    ///
    /// - Parameters:
    ///   - now: the current instant (called each time the time is needed).
    ///   - clock: the clock waits are made on and durations measured with.
    public init<C: Clock>(now: @escaping @Sendable () -> Date, clock: C) where C.Duration == Duration {
        self.wallClock = now
        self.clock = clock
        self.sleeper = { duration in try await clock.sleep(for: duration) }
        self.startStopwatch = {
            let start = clock.now
            return { start.duration(to: clock.now) }
        }
    }

    /// The system's time: `Date()` for ``now``, `ContinuousClock` for waits. The default everywhere.
    public static var system: AppStoreClock {
        AppStoreClock(now: { Date() }, clock: ContinuousClock())
    }

    /// The current wall-clock instant.
    public var now: Date { wallClock() }

    /// Waits `duration` on ``clock``.
    ///
    /// - Throws: `CancellationError` when the calling task is cancelled first.
    public func sleep(for duration: Duration) async throws {
        try await sleeper(duration)
    }

    /// A function that returns the time elapsed on ``clock`` since this call (a client's deadline
    /// and pacing measure with it).
    public func stopwatch() -> @Sendable () -> Duration {
        startStopwatch()
    }

    /// The current instant in whole seconds since 1970, rounded down (OCSP's and X.509's resolution).
    var nowSeconds: Int64 { EffectiveInstant(now, origin: "now").seconds }
}
