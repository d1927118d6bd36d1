#if ServerAPIClient
import AppStoreServerAPI
import AppStoreServerAPITesting
import AppStoreVerification
import AppStoreVerificationTesting
import Foundation
import Testing

/// Client-side pacing to Apple's published rate limits, against a fake that enforces them.
@Suite(.timeLimit(.minutes(2)))
struct PacingTests {
    /// Apple's table, as *Identifying rate limits* publishes it.
    @Test func theTableIsApples() {
        func rate(_ method: String, _ path: String) -> Int? { PublishedRateLimit.matching(method: method, path: path)?.perSecond }
        #expect(rate("GET", "/inApps/v1/transactions/1") == 50)
        #expect(rate("GET", "/inApps/v1/transactions/appTransactions/1") == 50)
        #expect(rate("GET", "/inApps/v2/history/1?revision=x") == 50)
        #expect(rate("GET", "/inApps/v1/history/1") == 50)
        #expect(rate("GET", "/inApps/v1/subscriptions/1") == 50)
        #expect(rate("PUT", "/inApps/v2/transactions/consumption/1") == 50)
        #expect(rate("PUT", "/inApps/v1/transactions/consumption/1") == 50)
        #expect(rate("POST", "/inApps/v1/notifications/history") == 50)
        #expect(rate("POST", "/inApps/v1/transactions/1/finish") == 50)
        #expect(rate("PUT", "/inApps/v1/subscriptions/extend/1") == 20)
        #expect(rate("PUT", "/inApps/v1/transactions/1/appAccountToken") == 20)
        #expect(rate("GET", "/inApps/v1/lookup/W1") == 10)
        #expect(rate("GET", "/inApps/v2/refund/lookup/1") == 10)
        #expect(rate("POST", "/inApps/v1/subscriptions/extend/mass") == 1)
        #expect(rate("POST", "/inApps/v1/notifications/test") == 1)
        #expect(rate("GET", "/inApps/v1/notifications/test/token") == 1)
        #expect(rate("GET", "/inApps/v1/subscriptions/extend/mass/p/r") == nil)
        let limit = PublishedRateLimit.matching(method: "GET", path: "/inApps/v1/transactions/1")
        #expect(limit?.budget(window: .seconds(3600), scale: 1, sandbox: false) == 180_000)
        #expect(limit?.budget(window: .seconds(3600), scale: 1, sandbox: true) == 18_000)
    }

    /// A burst within the hourly budget goes at once: no wait at all.
    @Test func aBurstWithinTheBudgetIsNotSlowed() async throws {
        try await Harness.with { harness in
            harness.fake.setTransactionInfo(try harness.transaction("1"), for: "1")
            let clock = Harness.skippingClock()
            let client = try harness.client(clock: .manual(clock))
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<200 {
                    group.addTask { _ = try await client.getTransactionInfo(transactionId: "1") }
                }
                try await group.waitForAll()
            }
            #expect(harness.fake.requests.count == 200)
            #expect(clock.sleeps.isEmpty)
        }
    }

    /// Past the budget the next request waits until the oldest leaves the window, on the client's
    /// clock; the budget is shared by every task of one client.
    @Test func pastTheBudgetARequestWaitsForTheWindow() async throws {
        try await Harness.with { harness in
            harness.fake.setTransactionInfo(try harness.transaction("1"), for: "1")
            let clock = Harness.skippingClock()
            var options = Harness.fastOptions
            // Get Transaction Info in the sandbox: 50 × 0.1 × 0.01 × 60 s = 3 requests a minute.
            options.pacing = .init(scale: 0.01, window: .seconds(60))
            let client = try harness.client(options: options, clock: .manual(clock))
            for _ in 0..<4 { _ = try await client.getTransactionInfo(transactionId: "1") }
            #expect(harness.fake.requests.count == 4)
            // The fourth waited once, at least the window and at most one slot more.
            #expect(clock.sleeps.count == 1)
            #expect(clock.sleeps.reduce(.zero, +) >= .seconds(60) && clock.sleeps.reduce(.zero, +) <= .seconds(61))
        }
    }

    /// A wait that would end past the deadline fails at once, and nothing is sent.
    @Test func aPacingWaitPastTheDeadlineFailsWithoutSending() async throws {
        try await Harness.with { harness in
            harness.fake.setTransactionInfo(try harness.transaction("1"), for: "1")
            let clock = Harness.skippingClock()
            var options = Harness.fastOptions
            options.pacing = .init(scale: 0.01, window: .seconds(600))
            options.deadline = .seconds(30)
            let client = try harness.client(options: options, clock: .manual(clock))
            for _ in 0..<30 { _ = try await client.getTransactionInfo(transactionId: "1") }
            let error = await apiError { _ = try await client.getTransactionInfo(transactionId: "1") }
            #expect(error?.code == .deadlineExceeded)
            #expect(error?.message.contains("Get Transaction Info") == true)
            #expect(error?.retryAfter != nil)
            #expect(harness.fake.requests.count == 30)
            #expect(clock.sleeps.isEmpty)
        }
    }

    // MARK: - Against a fake that enforces the limits (real time, a few seconds)

    /// Get Transaction History and Get Transaction Info allow 50 × 0.1 (sandbox) × 20 × 0.5 s = 50
    /// requests in any half second here.
    static let scale = 20.0
    static let window = Duration.milliseconds(500)

    /// Paging through a history of 2,000 items (100 pages) draws no 429.
    @Test func pagingThroughALargeHistoryDrawsNo429() async throws {
        try await Harness.with { harness in
            harness.fake.pageSize = 20
            let history = try (0..<2_000).map { try harness.transaction("h\($0)") }
            harness.fake.setTransactionHistory(history, for: "h0")
            harness.fake.enforcePublishedRateLimits(scale: Self.scale, window: Self.window)
            var options = Harness.fastOptions
            options.pacing = .init(scale: Self.scale, window: Self.window)
            var count = 0
            for try await item in try harness.client(options: options).transactionHistory(transactionId: "h0") {
                #expect(item.isVerified)
                count += 1
            }
            #expect(count == 2_000)
            #expect(harness.fake.requests.count == 100)
            #expect(harness.fake.rateLimitedRequests == 0)
        }
    }

    /// A loop of many small requests from several tasks draws no 429; the same loop without pacing
    /// does (the fake does enforce the limits), and still succeeds by honouring Apple's
    /// `Retry-After`.
    @Test func aLoopOfSmallRequestsDrawsNo429WhilePacingAndSomeWithout() async throws {
        for paced in [true, false] {
            try await Harness.with { harness in
                harness.fake.setTransactionInfo(try harness.transaction("1"), for: "1")
                harness.fake.enforcePublishedRateLimits(scale: Self.scale, window: Self.window)
                var options = Harness.fastOptions
                options.pacing = paced ? .init(scale: Self.scale, window: Self.window) : .off
                options.maximumAttempts = 50
                let client = try harness.client(options: options)
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for worker in 0..<4 {
                        group.addTask {
                            for _ in 0..<50 {
                                let result = try await client.getTransactionInfo(transactionId: "1")
                                #expect(result.isVerified, "worker \(worker)")
                            }
                        }
                    }
                    try await group.waitForAll()
                }
                if paced {
                    #expect(harness.fake.rateLimitedRequests == 0)
                    #expect(harness.fake.requests.count == 200)
                } else {
                    #expect(harness.fake.rateLimitedRequests > 0)
                }
            }
        }
    }
}
#endif
