#if ServerAPIClient
import AppStoreServerAPI
import AppStoreServerAPITesting
import AppStoreVerification
import AppStoreVerificationTesting
import AsyncHTTPClient
import Foundation
import Testing

/// The error `body` throws, if it is an ``AppStoreServerAPIError``.
func apiError(_ body: () async throws -> Void) async -> AppStoreServerAPIError? {
    do {
        try await body()
        return nil
    } catch let error as AppStoreServerAPIError {
        return error
    } catch {
        return nil
    }
}

/// Retries, backoff, `Retry-After`, deadlines and cancellation. The clients run on a clock that
/// skips its waits (``Harness/skippingClock(date:)``): the tests assert what the client waited and
/// how often it asked, never how long a call took, and wait no real backoff.
@Suite(.timeLimit(.minutes(1)))
struct FailureTests {
    @Test func rateLimitIsRetriedAfterRetryAfter() async throws {
        try await Harness.with { harness in
            let jws = try harness.transaction("1")
            harness.fake.setTransactionInfo(jws, for: "1")
            harness.fake.enqueue(.rateLimited(retryAfter: 1, form: .seconds))
            let clock = Harness.skippingClock()
            let result = try await harness.client(clock: .manual(clock)).getTransactionInfo(transactionId: "1")
            #expect(result.isVerified)
            #expect(harness.fake.requests.count == 2)
            // Retry-After (1 s) wins over the 50 ms backoff.
            #expect(clock.sleeps == [.seconds(1)])
        }
    }

    @Test func serverErrorsAreRetriedWithBackoffUntilTheAttemptsAreSpent() async throws {
        try await Harness.with { harness in
            let jws = try harness.transaction("1")
            let failure = FakeAppStoreServerAPI.ScriptedAnswer.serverError(status: 500, code: .generalInternal)
            harness.fake.setTransactionInfo(jws, for: "1")
            harness.fake.enqueue(failure, failure)
            let clock = Harness.skippingClock()
            #expect(try await harness.client(clock: .manual(clock)).getTransactionInfo(transactionId: "1").isVerified)
            #expect(harness.fake.requests.count == 3)
            // The backoff doubles from initialBackoff (50 ms).
            #expect(clock.sleeps == [.milliseconds(50), .milliseconds(100)])

            harness.fake.enqueue(contentsOf: Array(repeating: failure, count: 4))
            let spent = Harness.skippingClock()
            let error = await apiError { _ = try await harness.client(clock: .manual(spent)).getTransactionInfo(transactionId: "1") }
            #expect(error?.code == .apiError)
            #expect(error?.httpStatusCode == 500)
            #expect(error?.apiError == .generalInternal)
            #expect(error?.isRetryable == true)
            #expect(error?.message.contains("after 4 attempts") == true)
            #expect(harness.fake.requests.count == 7)
            // Doubling, capped at maximumBackoff (200 ms); no wait after the last attempt.
            #expect(spent.sleeps == [.milliseconds(50), .milliseconds(100), .milliseconds(200)])
        }
    }

    @Test func aRetryAfterBeyondTheDeadlineFailsAtOnce() async throws {
        try await Harness.with { harness in
            harness.fake.enqueue(.response(FakeAppStoreServerAPI.Response(status: 429, headers: [.init(name: "Retry-After", value: "30")])))
            var options = Harness.fastOptions
            options.deadline = .seconds(3)
            let clock = Harness.skippingClock()
            let error = await apiError { _ = try await harness.client(options: options, clock: .manual(clock)).getTransactionInfo(transactionId: "1") }
            #expect(error?.code == .deadlineExceeded)
            #expect(error?.httpStatusCode == 429)
            #expect(error?.message.contains("Retry-After") == true)
            // Failed without waiting: one request, no wait, and the error names the Retry-After it
            // did not wait.
            #expect(harness.fake.requests.count == 1)
            #expect(clock.sleeps.isEmpty)
        }
    }

    @Test func theDeadlineCountsTheWaitsBetweenAttempts() async throws {
        try await Harness.with { harness in
            let failure = FakeAppStoreServerAPI.ScriptedAnswer.serverError(status: 503, code: .generalInternal)
            harness.fake.enqueue(contentsOf: Array(repeating: failure, count: 10))
            var options = Harness.fastOptions
            options.maximumAttempts = 10
            options.initialBackoff = .seconds(10)
            options.maximumBackoff = .seconds(40)
            options.deadline = .seconds(35)
            let clock = Harness.skippingClock()
            let error = await apiError { _ = try await harness.client(options: options, clock: .manual(clock)).getTransactionInfo(transactionId: "1") }
            // 10 + 20 s waited (on the test clock); the next wait (40 s) would end past the deadline
            // (5 s left): not started.
            #expect(error?.code == .deadlineExceeded)
            #expect(error?.httpStatusCode == 503)
            #expect(clock.sleeps == [.seconds(10), .seconds(20)])
            #expect(harness.fake.requests.count == 3)
        }
    }

    @Test func aStalledServerHitsTheDeadline() async throws {
        try await Harness.with { harness in
            harness.fake.enqueue(.noAnswer)
            var options = Harness.fastOptions
            options.deadline = .seconds(1)
            let error = await apiError { _ = try await harness.client(options: options).getTransactionInfo(transactionId: "1") }
            // The deadline, not the (longer) per-request timeout or another failure: one attempt,
            // bounded by the deadline.
            #expect(error?.code == .deadlineExceeded)
            #expect(error?.message.contains("before the deadline") == true)
            #expect(harness.fake.requests.count == 1)
        }
    }

    @Test func aStalledAttemptTimesOutAndIsRetried() async throws {
        try await Harness.with { harness in
            let jws = try harness.transaction("1")
            harness.fake.setTransactionInfo(jws, for: "1")
            harness.fake.enqueue(.noAnswer)
            var options = Harness.fastOptions
            options.requestTimeout = .milliseconds(500)
            let result = try await harness.client(options: options, clock: .manual(Harness.skippingClock())).getTransactionInfo(transactionId: "1")
            #expect(result.isVerified)
            #expect(harness.fake.requests.count == 2)

            harness.fake.enqueue(.noAnswer, .noAnswer)
            options.maximumAttempts = 2
            let error = await apiError { _ = try await harness.client(options: options, clock: .manual(Harness.skippingClock())).getTransactionInfo(transactionId: "1") }
            #expect(error?.code == .timedOut)
            #expect(harness.fake.requests.count == 4)
        }
    }

    @Test func cancellationStopsAPendingCall() async throws {
        try await Harness.with { harness in
            harness.fake.enqueue(.noAnswer)
            let client = try harness.client()
            let task = Task { await apiError { _ = try await client.getTransactionInfo(transactionId: "1") } }
            // Cancelled once the request is pending at the server (the suite's time limit bounds the wait).
            await harness.fake.waitForRequests(1)
            task.cancel()
            let error = await task.value
            #expect(error?.code == .cancelled)
        }
    }

    @Test func aConnectionRefusedIsATransportFailure() async throws {
        // AsyncHTTPClient retries a refused connection until the attempt's timeout unless told not to.
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        // A port nothing listens on: bind a server, note its port, close it.
        let pki = try Shared.pki.get()
        let fake = try await FakeAppStoreServerAPI.start(keyId: Harness.keyId, issuerId: Harness.issuerId, bundleId: Harness.bundleId,
                                                         publicKey: try SigningKey(pem: try Shared.apiKey.get().pemEncoded).publicKeyDER)
        let url = fake.baseURL
        await fake.stop()
        var options = Harness.fastOptions
        options.maximumAttempts = 2
        let clock = Harness.skippingClock()
        let client = AppStoreServerAPIClient(signingKey: try SigningKey(pem: try Shared.apiKey.get().pemEncoded), keyId: Harness.keyId,
                                             issuerId: Harness.issuerId, bundleId: Harness.bundleId, environment: try .baseURL(url),
                                             verifier: .offline(try SignedDataVerifier(configuration: pki.verifierConfiguration())), options: options,
                                             transport: AsyncHTTPClientTransport(httpClient: http), clock: .manual(clock))
        let error = await apiError { _ = try await client.getTransactionInfo(transactionId: "1") }
        try await http.shutdown()
        #expect(error?.code == .transportFailure)
        #expect(error?.message.contains("after 2 attempts") == true)
        #expect(clock.sleeps == [.milliseconds(50)])
    }
}
#endif
