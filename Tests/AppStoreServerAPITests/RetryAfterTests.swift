#if ServerAPIClient
import AppStoreServerAPI
import AppStoreServerAPITesting
import AppStoreVerification
import AppStoreVerificationTesting
import Foundation
import Testing

/// `Retry-After` as Apple sends it (a UNIX time in milliseconds) and as RFC 9110 allows it
/// (delta-seconds, HTTP-date). The client's clock (``Harness/skippingClock(date:)``) starts at a
/// fixed instant and skips its waits: the tests assert what the client waited, never how long a call took.
@Suite(.timeLimit(.minutes(1)))
struct RetryAfterTests {
    /// The wall clock of these tests' clients, to the millisecond.
    static let now = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 * 1000).rounded(.down) / 1000)
    static var nowMilliseconds: Int64 { Int64((now.timeIntervalSince1970 * 1000).rounded()) }

    /// A 429 with `Retry-After: value`.
    static func rateLimited(_ value: String) -> FakeAppStoreServerAPI.ScriptedAnswer {
        .response(.init(status: 429, headers: [.init(name: "Retry-After", value: value)]))
    }

    /// One Get Transaction Info after a 429 with `Retry-After: value`: what the client waited.
    static func waitAfter(_ value: String, options: AppStoreServerAPIClient.Options = Harness.fastOptions) async throws -> (waits: [Duration], error: AppStoreServerAPIError?, requests: Int) {
        var outcome: (waits: [Duration], error: AppStoreServerAPIError?, requests: Int) = ([], nil, 0)
        try await Harness.with { harness in
            harness.fake.setTransactionInfo(try harness.transaction("1"), for: "1")
            harness.fake.enqueue(rateLimited(value))
            let clock = Harness.skippingClock(date: now)
            let client = try harness.client(options: options, clock: .manual(clock))
            let error = await apiError { _ = try await client.getTransactionInfo(transactionId: "1") }
            outcome = (clock.sleeps, error, harness.fake.requests.count)
        }
        return outcome
    }

    @Test func applesUnixMillisecondsAreAnInstantToWaitFor() async throws {
        let outcome = try await Self.waitAfter(String(Self.nowMilliseconds + 3_250))
        #expect(outcome.error == nil)
        #expect(outcome.waits == [.milliseconds(3_250)])
        #expect(outcome.requests == 2)
    }

    /// The client waits on its clock: after a 429 it sends nothing until the clock reaches the
    /// end of `Retry-After`, then retries (the test advances the clock when the client sleeps).
    @Test func theClientWaitsOnItsClockUntilRetryAfter() async throws {
        try await Harness.with { harness in
            harness.fake.setTransactionInfo(try harness.transaction("1"), for: "1")
            harness.fake.enqueue(Self.rateLimited("30"))
            let clock = ManualClock()
            let client = try harness.client(clock: .manual(clock))
            let call = Task { try await client.getTransactionInfo(transactionId: "1") }
            try await clock.waitForSleepers(1)
            #expect(harness.fake.requests.count == 1)
            clock.advance(by: .seconds(29))
            #expect(clock.sleeperCount == 1)
            #expect(harness.fake.requests.count == 1)
            clock.advance(by: .seconds(1))
            #expect(try await call.value.isVerified)
            #expect(harness.fake.requests.count == 2)
            #expect(clock.sleeps == [.seconds(30)])
        }
    }

    @Test func deltaSecondsAreAWait() async throws {
        let outcome = try await Self.waitAfter("7")
        #expect(outcome.error == nil)
        #expect(outcome.waits == [.seconds(7)])
    }

    @Test func anHTTPDateIsAnInstantToWaitFor() async throws {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        // Whole seconds: the date 12 s after `now`'s second.
        let second = Date(timeIntervalSince1970: Self.now.timeIntervalSince1970.rounded(.down) + 12)
        let outcome = try await Self.waitAfter(formatter.string(from: second))
        #expect(outcome.error == nil)
        #expect(outcome.waits == [.milliseconds(Int64((second.timeIntervalSince(Self.now) * 1000).rounded()))])
    }

    @Test func aPastInstantMeansNow() async throws {
        let outcome = try await Self.waitAfter(String(Self.nowMilliseconds - 60_000))
        #expect(outcome.error == nil)
        #expect(outcome.waits == [.zero])
    }

    @Test func aFarFutureInstantFailsAtOnceNamingIt() async throws {
        let instant = Self.nowMilliseconds + 7_200_000
        let outcome = try await Self.waitAfter(String(instant))
        let error = try #require(outcome.error)
        #expect(error.code == .deadlineExceeded)
        #expect(error.httpStatusCode == 429)
        #expect(error.retryAfter == .seconds(7_200))
        #expect(error.retryAfterDate == Date(timeIntervalSince1970: Double(instant) / 1000))
        #expect(error.isRetryable)
        #expect(outcome.waits.isEmpty)
        #expect(outcome.requests == 1)
    }

    @Test(arguments: ["soon", "-5", "1.5", "", "Thu, 99 Foo 2026 25:61:00 GMT"])
    func garbageIsIgnoredAndTheClientBacksOff(value: String) async throws {
        let outcome = try await Self.waitAfter(value)
        #expect(outcome.error == nil)
        // The backoff of Harness.fastOptions, as if no header came.
        #expect(outcome.waits == [.milliseconds(50)])
    }

    @Test func anOverflowingNumberIsAFarFutureNotACrash() async throws {
        let outcome = try await Self.waitAfter(String(repeating: "9", count: 40))
        let error = try #require(outcome.error)
        #expect(error.code == .deadlineExceeded)
        #expect(outcome.waits.isEmpty)
        #expect((error.retryAfter ?? .zero) > .seconds(1_000_000_000))
    }

    /// The fake answers in Apple's form by default, and in the others when asked.
    @Test func theFakeWritesEachForm() async throws {
        try await Harness.with { harness in
            harness.fake.setTransactionInfo(try harness.transaction("1"), for: "1")
            harness.fake.enqueue(.rateLimited(retryAfter: 2), .rateLimited(retryAfter: 2, form: .seconds), .rateLimited(retryAfter: 2, form: .httpDate))
            let clock = Harness.skippingClock()
            let options = AppStoreServerAPIClient.Options(deadline: .seconds(60), maximumAttempts: 4, initialBackoff: .milliseconds(50))
            // The real wall clock (the fake wrote its instants from it), waits skipped.
            let realTime = AppStoreClock(now: { Date() }, clock: clock)
            #expect(try await harness.client(options: options, clock: realTime).getTransactionInfo(transactionId: "1").isVerified)
            #expect(clock.sleeps.count == 3)
            // Apple's instant 2 s ahead, read a moment later: a little under 2 s, never the 10^9 s
            // of a number read as seconds.
            #expect(clock.sleeps[0] > .milliseconds(1_000) && clock.sleeps[0] <= .seconds(2))
            #expect(clock.sleeps[1] == .seconds(2))
            #expect(clock.sleeps[2] > .zero && clock.sleeps[2] <= .seconds(3))
        }
    }
}
#endif
