import AppStoreVerification
import AppStoreVerificationTesting
import Foundation
import Testing

/// The manual clock stands still until advanced, wakes sleepers when an advance reaches them, and
/// tells a test when the code under test waits on it (no polling, no real time).
@Suite(.timeLimit(.minutes(1)))
struct ManualClockTests {
    static let start = Date(timeIntervalSince1970: 1_750_000_000)

    @Test func itStandsStillUntilAdvanced() {
        let clock = ManualClock(date: Self.start)
        let appStoreClock = AppStoreClock.manual(clock)
        #expect(appStoreClock.now == Self.start)
        let elapsed = appStoreClock.stopwatch()
        clock.advance(by: .milliseconds(1_500))
        #expect(appStoreClock.now == Self.start.addingTimeInterval(1.5))
        #expect(elapsed() == .milliseconds(1_500))
        // Setting the date moves the wall clock alone.
        clock.date = Self.start
        #expect(appStoreClock.now == Self.start)
        #expect(elapsed() == .milliseconds(1_500))
    }

    @Test func aSleeperWakesWhenAnAdvanceReachesItsDeadline() async throws {
        let clock = ManualClock(date: Self.start)
        let sleeper = Task { try await AppStoreClock.manual(clock).sleep(for: .seconds(10)) }
        try await clock.waitForSleepers(1)
        clock.advance(by: .seconds(9))
        #expect(clock.sleeperCount == 1)  // not yet: 1 s left
        clock.advance(by: .seconds(1))
        try await sleeper.value
        #expect(clock.sleeperCount == 0)
        #expect(clock.sleeps == [.seconds(10)])
    }

    @Test func sleepersWakeEarliestFirst() async throws {
        let clock = ManualClock()
        let order = Order()
        let late = Task { try await clock.sleep(for: .seconds(20)); await order.append("late") }
        try await clock.waitForSleepers(1)
        let early = Task { try await clock.sleep(for: .seconds(5)); await order.append("early") }
        try await clock.waitForSleepers(2)
        clock.advance(by: .seconds(5))
        try await early.value
        clock.advance(by: .seconds(15))
        try await late.value
        #expect(await order.names == ["early", "late"])
    }

    @Test func cancellingASleeperEndsItsSleep() async throws {
        let clock = ManualClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(60)) }
        try await clock.waitForSleepers(1)
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 0)
    }

    @Test func advancingWhenSleepingPassesEveryWaitAtOnce() async throws {
        let clock = ManualClock(date: Self.start, advancesWhenSleeping: true)
        let appStoreClock = AppStoreClock.manual(clock)
        try await appStoreClock.sleep(for: .seconds(3))
        try await appStoreClock.sleep(for: .milliseconds(250))
        #expect(clock.sleeps == [.seconds(3), .milliseconds(250)])
        #expect(appStoreClock.now == Self.start.addingTimeInterval(3.25))
    }

    /// The order sleepers woke in.
    actor Order {
        var names: [String] = []
        func append(_ name: String) { names.append(name) }
    }
}
