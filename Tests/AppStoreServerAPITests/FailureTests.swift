#if ServerAPIClient
import AppStoreServerAPI
import AppStoreServerAPITesting
import AppStoreVerification
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

@Suite(.timeLimit(.minutes(1)))
struct FailureTests {
    @Test func rateLimitIsRetriedAfterRetryAfter() async throws {
        try await Harness.with { harness in
            let jws = try harness.transaction("1")
            harness.fake.setTransactionInfo(jws, for: "1")
            harness.fake.enqueue(.rateLimited(retryAfter: 1))
            let result = try await harness.client().getTransactionInfo(transactionId: "1")
            #expect(result.isVerified)
            let requests = harness.fake.requests
            #expect(requests.count == 2)
            if requests.count == 2 {
                // Retry-After (1 s) wins over the 50 ms backoff.
                #expect(requests[0].receivedAt.duration(to: requests[1].receivedAt) >= .milliseconds(950))
            }
        }
    }

    @Test func serverErrorsAreRetriedWithBackoffUntilTheAttemptsAreSpent() async throws {
        try await Harness.with { harness in
            let jws = try harness.transaction("1")
            let failure = FakeAppStoreServerAPI.ScriptedAnswer.serverError(status: 500, code: .generalInternal)
            harness.fake.setTransactionInfo(jws, for: "1")
            harness.fake.enqueue(failure, failure)
            let client = try harness.client()
            #expect(try await client.getTransactionInfo(transactionId: "1").isVerified)
            #expect(harness.fake.requests.count == 3)

            harness.fake.enqueue(contentsOf: Array(repeating: failure, count: 4))
            let error = await apiError { _ = try await client.getTransactionInfo(transactionId: "1") }
            #expect(error?.code == .apiError)
            #expect(error?.httpStatusCode == 500)
            #expect(error?.apiError == .generalInternal)
            #expect(error?.isRetryable == true)
            #expect(error?.message.contains("after 4 attempts") == true)
            #expect(harness.fake.requests.count == 7)
        }
    }

    @Test func aRetryAfterBeyondTheDeadlineFailsAtOnce() async throws {
        try await Harness.with { harness in
            harness.fake.enqueue(.response(FakeAppStoreServerAPI.Response(status: 429, headers: [.init(name: "Retry-After", value: "30")])))
            var options = Harness.fastOptions
            options.deadline = .seconds(3)
            let error = await apiError { _ = try await harness.client(options: options).getTransactionInfo(transactionId: "1") }
            #expect(error?.code == .deadlineExceeded)
            #expect(error?.httpStatusCode == 429)
            #expect(error?.message.contains("Retry-After") == true)
            // Failed without waiting: one request, and the error names the Retry-After it did not wait.
            #expect(harness.fake.requests.count == 1)
        }
    }

    @Test func aStalledServerHitsTheDeadline() async throws {
        try await Harness.with { harness in
            harness.fake.enqueue(.noAnswer)
            var options = Harness.fastOptions
            options.deadline = .seconds(1)
            let started = ContinuousClock.now
            let error = await apiError { _ = try await harness.client(options: options).getTransactionInfo(transactionId: "1") }
            let elapsed = started.duration(to: .now)
            #expect(error?.code == .deadlineExceeded)
            #expect(elapsed >= .milliseconds(900))  // the deadline, not an earlier failure
        }
    }

    @Test func aStalledAttemptTimesOutAndIsRetried() async throws {
        try await Harness.with { harness in
            let jws = try harness.transaction("1")
            harness.fake.setTransactionInfo(jws, for: "1")
            harness.fake.enqueue(.noAnswer)
            var options = Harness.fastOptions
            options.requestTimeout = .milliseconds(500)
            let result = try await harness.client(options: options).getTransactionInfo(transactionId: "1")
            #expect(result.isVerified)
            #expect(harness.fake.requests.count == 2)

            harness.fake.enqueue(.noAnswer, .noAnswer)
            options.maximumAttempts = 2
            let error = await apiError { _ = try await harness.client(options: options).getTransactionInfo(transactionId: "1") }
            #expect(error?.code == .timedOut)
            #expect(harness.fake.requests.count == 4)
        }
    }

    @Test func cancellationStopsAPendingCall() async throws {
        try await Harness.with { harness in
            harness.fake.enqueue(.noAnswer)
            let client = try harness.client()
            let task = Task { await apiError { _ = try await client.getTransactionInfo(transactionId: "1") } }
            try await Task.sleep(for: .milliseconds(300))
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
        let client = try AppStoreServerAPIClient(signingKey: try SigningKey(pem: try Shared.apiKey.get().pemEncoded), keyId: Harness.keyId,
                                                 issuerId: Harness.issuerId, bundleId: Harness.bundleId, baseURL: url,
                                                 verifier: try SignedDataVerifier(configuration: pki.verifierConfiguration()), options: options,
                                                 httpClient: http)
        let error = await apiError { _ = try await client.getTransactionInfo(transactionId: "1") }
        try await http.shutdown()
        #expect(error?.code == .transportFailure)
        #expect(error?.message.contains("after 2 attempts") == true)
    }
}
#endif
