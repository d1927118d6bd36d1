import AppStoreVerification
import Foundation

/// A clock tests move by hand: its wall-clock ``date`` and its instants stand still until
/// ``advance(by:)`` moves them, and a task sleeping on it wakes when an advance reaches its deadline.
///
/// Pass it as `AppStoreClock.manual(_:)` wherever the package takes an
/// `AppStoreClock` (the verifiers' configuration, the App Store Server API client), so that expiry,
/// caching, backoff and pacing are tested at chosen instants and without waiting:
///
/// ```swift
/// let clock = ManualClock(date: signedDate)
/// var configuration = pki.verifierConfiguration(bundleId: "com.example.app", environment: .sandbox)
/// configuration.clock = .manual(clock)
/// clock.advance(by: .seconds(3600))  // an hour later, without waiting an hour
/// ```
///
/// Waiting is event-driven: ``waitForSleepers(_:)`` returns when that many tasks sleep on the
/// clock, so a test advances it exactly when the code under test waits. With
/// `advancesWhenSleeping`, every sleep instead moves the clock to its own deadline at once (a
/// client's retries then run through their waits immediately), and ``sleeps`` records them.
public final class ManualClock: Clock, @unchecked Sendable {
    /// An instant of a ``ManualClock``: the time since the clock was made.
    public struct Instant: InstantProtocol, Sendable {
        /// The time since the clock was made.
        public let offset: Swift.Duration

        /// The instant `offset` after the clock was made.
        public init(offset: Swift.Duration) { self.offset = offset }

        /// The instant `duration` later.
        public func advanced(by duration: Swift.Duration) -> Instant { Instant(offset: offset + duration) }

        /// The time from this instant to `other`.
        public func duration(to other: Instant) -> Swift.Duration { other.offset - offset }

        /// Whether `lhs` comes before `rhs`.
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        let id: Int
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct Watcher {
        let id: Int
        let count: Int
        let continuation: CheckedContinuation<Void, any Error>
    }

    private let lock = NSLock()
    private var current = Instant(offset: .zero)
    private var wall: Date
    private var sleepers: [Sleeper] = []
    private var watchers: [Watcher] = []
    private var cancelled: Set<Int> = []
    private var nextId = 0
    private var requested: [Swift.Duration] = []
    private let advancesWhenSleeping: Bool

    /// A clock standing at `date`.
    ///
    /// - Parameters:
    ///   - date: the wall-clock instant it starts at; by default the current time, so that data
    ///     minted now (and a fake App Store checking bearer tokens by the real time) agree with it.
    ///   - advancesWhenSleeping: whether a sleep moves the clock to its deadline at once instead of
    ///     waiting for ``advance(by:)``.
    public init(date: Date = Date(), advancesWhenSleeping: Bool = false) {
        self.wall = date
        self.advancesWhenSleeping = advancesWhenSleeping
    }

    /// The current instant.
    public var now: Instant { lock.withLock { current } }

    /// The clock's resolution: any duration.
    public var minimumResolution: Swift.Duration { .zero }

    /// The wall-clock instant: `AppStoreClock.now` of `AppStoreClock.manual(_:)`.
    /// Setting it moves the wall clock alone (as a system clock may jump); the instants and the
    /// sleepers stay where they are.
    public var date: Date {
        get { lock.withLock { wall } }
        set { lock.withLock { wall = newValue } }
    }

    /// Every sleep asked of the clock, in order, as the time from the instant it was asked to its
    /// deadline (a sleep until a past instant counts as zero).
    public var sleeps: [Swift.Duration] { lock.withLock { requested } }

    /// How many tasks are sleeping on the clock now.
    public var sleeperCount: Int { lock.withLock { sleepers.count } }

    /// Moves the clock (its instants and its wall clock) forward by `duration` and wakes every task
    /// whose deadline it reaches, earliest first.
    public func advance(by duration: Swift.Duration) {
        let due: [Sleeper] = lock.withLock {
            current = current.advanced(by: duration)
            wall = wall.addingTimeInterval(Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
            return takeDue()
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Sleeps until `deadline`: until an ``advance(by:)`` reaches it (or at once with
    /// `advancesWhenSleeping`).
    ///
    /// - Throws: `CancellationError` when the calling task is cancelled first.
    public func sleep(until deadline: Instant, tolerance: Swift.Duration? = nil) async throws {
        try Task.checkCancellation()
        let id = lock.withLock {
            nextId += 1
            return nextId
        }
        if advancesWhenSleeping {
            let due: [Sleeper] = lock.withLock {
                requested.append(max(.zero, current.duration(to: deadline)))
                guard deadline > current else { return [] }
                let moved = current.duration(to: deadline)
                current = deadline
                wall = wall.addingTimeInterval(Double(moved.components.seconds) + Double(moved.components.attoseconds) / 1e18)
                return takeDue()
            }
            for sleeper in due { sleeper.continuation.resume() }
            return
        }
        defer { lock.withLock { _ = cancelled.remove(id) } }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (outcome, ready): (Result<Void, any Error>?, [Watcher]) = lock.withLock {
                    if cancelled.contains(id) { return (.failure(CancellationError()), []) }
                    requested.append(max(.zero, current.duration(to: deadline)))
                    if deadline <= current { return (.success(()), []) }
                    sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return (nil, takeSatisfiedWatchers())
                }
                for watcher in ready { watcher.continuation.resume() }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: { [self] in
            let sleeper: Sleeper? = lock.withLock {
                cancelled.insert(id)
                guard let index = sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Returns when at least `count` tasks are sleeping on the clock (at once if they already are):
    /// advance it then, and the code under test sees the time pass while it waits.
    ///
    /// - Throws: `CancellationError` when the calling task is cancelled first.
    public func waitForSleepers(_ count: Int = 1) async throws {
        try Task.checkCancellation()
        let id = lock.withLock {
            nextId += 1
            return nextId
        }
        defer { lock.withLock { _ = cancelled.remove(id) } }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome: Result<Void, any Error>? = lock.withLock {
                    if cancelled.contains(id) { return .failure(CancellationError()) }
                    if sleepers.count >= count { return .success(()) }
                    watchers.append(Watcher(id: id, count: count, continuation: continuation))
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: { [self] in
            let watcher: Watcher? = lock.withLock {
                cancelled.insert(id)
                guard let index = watchers.firstIndex(where: { $0.id == id }) else { return nil }
                return watchers.remove(at: index)
            }
            watcher?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Removes and returns the sleepers whose deadline has come, earliest first. Called under the lock.
    private func takeDue() -> [Sleeper] {
        let due = sleepers.filter { $0.deadline <= current }.sorted { $0.deadline < $1.deadline }
        sleepers.removeAll { $0.deadline <= current }
        return due
    }

    /// Removes and returns the watchers whose count of sleepers is reached. Called under the lock.
    private func takeSatisfiedWatchers() -> [Watcher] {
        let ready = watchers.filter { sleepers.count >= $0.count }
        watchers.removeAll { sleepers.count >= $0.count }
        return ready
    }
}

extension AppStoreClock {
    /// The time of `clock`: its ``ManualClock/date`` as `now`, and waits on it.
    public static func manual(_ clock: ManualClock) -> AppStoreClock {
        AppStoreClock(now: { clock.date }, clock: clock)
    }
}
