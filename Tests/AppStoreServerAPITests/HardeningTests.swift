#if ServerAPIClient
import AppStoreServerAPI
import AppStoreServerAPITesting
import AppStoreVerification
import AsyncHTTPClient
import Foundation
import Testing

/// The red-team findings on the API client, each closed: bounded pagination, no redirects, ports
/// validated, `Retry-After` read as a number, errors that carry what Apple answered, and no secret
/// in any description, `dump` or `Mirror`.
@Suite(.timeLimit(.minutes(1)))
struct HardeningTests {
    /// An endless history: every page says `hasMore` with a fresh revision and no items.
    static func endlessPages(_ count: Int) -> [FakeAppStoreServerAPI.ScriptedAnswer] {
        (0..<count).map { page in
            .response(.jsonObject(["revision": "rev-\(page)", "hasMore": true, "bundleId": Harness.bundleId, "environment": "Sandbox", "signedTransactions": []]))
        }
    }

    @Test func aHistoryThatNeverEndsStopsAtMaximumPages() async throws {
        try await Harness.with { harness in
            harness.fake.enqueue(contentsOf: Self.endlessPages(20))
            var options = Harness.fastOptions
            options.maximumPages = 5
            var seen = 0
            let client = try harness.client(options: options)
            do throws(AppStoreServerAPIError) {
                for try await _ in client.transactionHistory(transactionId: "1") { seen += 1 }
                Issue.record("an endless history ended without an error")
            } catch {
                #expect(error.code == .paginationLimitExceeded, "\(error)")
                #expect(error.message.contains("Options.maximumPages"), "\(error.message)")
            }
            #expect(seen == 0)
            #expect(harness.fake.requests.count == 5)
        }
    }

    @Test func aHistoryPastThePaginationDeadlineStops() async throws {
        try await Harness.with { harness in
            let pages = (0..<20).map { page in
                FakeAppStoreServerAPI.ScriptedAnswer.response(.jsonObject(["paginationToken": "token-\(page)", "hasMore": true, "notificationHistory": []]))
            }
            harness.fake.enqueue(contentsOf: pages)
            var options = Harness.fastOptions
            options.paginationDeadline = .zero
            let client = try harness.client(options: options)
            do throws(AppStoreServerAPIError) {
                _ = try await client.notificationHistory(
                    request: NotificationHistoryRequest(startDate: Date(timeIntervalSince1970: 0), endDate: Date())).collect()
                Issue.record("a sequence past its deadline did not stop")
            } catch {
                #expect(error.code == .paginationLimitExceeded, "\(error)")
                #expect(error.message.contains("Options.paginationDeadline"), "\(error.message)")
            }
            // The first page is always asked for; the deadline is checked before each next one.
            #expect(harness.fake.requests.count == 1)
        }
    }

    @Test func aRedirectIsNeverFollowed() async throws {
        try await Harness.with { harness in
            let target = harness.fake.baseURL + "/inApps/v1/transactions/1"
            let redirect = FakeAppStoreServerAPI.Response(status: 302, headers: [.init(name: "Location", value: target)])
            harness.fake.enqueue(.response(redirect))
            harness.fake.setTransactionInfo(try harness.transaction("1"), for: "1")
            let client = try harness.client()
            do throws(AppStoreServerAPIError) {
                _ = try await client.getTransactionInfo(transactionId: "1")
                Issue.record("a redirect was followed")
            } catch {
                #expect(error.code == .unexpectedRedirect, "\(error)")
                #expect(error.httpStatusCode == 302)
            }
            #expect(harness.fake.requests.count == 1, "the redirect's target was asked for")
        }
    }

    @Test(arguments: ["/elsewhere/inApps/v1/transactions/1", "/inApps/v1/transactions/1"])
    func anHTTPClientThatFollowsRedirectsStillGetsTheAnswerRefused(_ path: String) async throws {
        try await Harness.with { harness in
            // Elsewhere, and to itself (which AsyncHTTPClient refuses as a cycle).
            let target = harness.fake.baseURL + path
            let redirect = FakeAppStoreServerAPI.Response(status: 302, headers: [.init(name: "Location", value: target)])
            harness.fake.enqueue(.response(redirect))
            harness.fake.setTransactionInfo(try harness.transaction("1"), for: "1")
            // HTTPClient.shared follows redirects.
            let client = AppStoreServerAPIClient(signingKey: harness.signingKey, keyId: Harness.keyId, issuerId: Harness.issuerId,
                                                 bundleId: Harness.bundleId, environment: try .baseURL(harness.fake.baseURL), verifier: .offline(harness.verifier),
                                                 options: Harness.fastOptions, transport: AsyncHTTPClientTransport(httpClient: .shared))
            do throws(AppStoreServerAPIError) {
                _ = try await client.getTransactionInfo(transactionId: "1")
                Issue.record("an answer that came through a redirect was used (\(harness.fake.requests.map(\.path)))")
            } catch {
                #expect(error.code == .unexpectedRedirect, "\(error)")
            }
            #expect(harness.fake.requests.count <= 2, "retried after a redirect: \(harness.fake.requests.map(\.path))")
        }
    }

    @Test(arguments: ["http://127.0.0.1:65536", "http://127.0.0.1:99999999999999999999", "http://127.0.0.1:0",
                      "http://[::1]:70000", "https://api.example.com:-1", "http://127.0.0.1:80a"])
    func aPortOutsideOneTo65535IsRefused(_ baseURL: String) throws {
        let key = try SigningKey(pem: try Shared.apiKey.get().pemEncoded)
        let verifier = try SignedDataVerifier(configuration: try Shared.pki.get().verifierConfiguration())
        do throws(AppStoreServerAPIError) {
            _ = AppStoreServerAPIClient(signingKey: key, keyId: "K", issuerId: "I", bundleId: "b", environment: try .baseURL(baseURL), verifier: .offline(verifier))
            Issue.record("\(baseURL) was accepted")
        } catch {
            #expect(error.code == .invalidRequest, "\(error)")
        }
    }

    @Test(arguments: ["http://127.0.0.1:8080", "http://[::1]:1", "https://api.example.com:65535/prefix", "https://api.example.com"])
    func aValidPortIsAccepted(_ baseURL: String) throws {
        let key = try SigningKey(pem: try Shared.apiKey.get().pemEncoded)
        let verifier = try SignedDataVerifier(configuration: try Shared.pki.get().verifierConfiguration())
        let client = AppStoreServerAPIClient(signingKey: key, keyId: "K", issuerId: "I", bundleId: "b", environment: try .baseURL(baseURL), verifier: .offline(verifier))
        #expect(client.baseURL.hasPrefix(baseURL.components(separatedBy: "/prefix")[0]))
    }

    @Test func retryAfterWithLeadingZerosIsItsNumber() async throws {
        try await Harness.with { harness in
            var reply = FakeAppStoreServerAPI.Response.apiError(429, code: 4_290_000, message: "Rate limit exceeded.")
            reply.headers.append(.init(name: "Retry-After", value: "00000000000000000000120"))
            harness.fake.enqueue(.response(reply))
            var options = Harness.fastOptions
            options.deadline = .seconds(10)
            let client = try harness.client(options: options)
            do throws(AppStoreServerAPIError) {
                _ = try await client.getTransactionInfo(transactionId: "1")
                Issue.record("a 429 asking for 120 s within a 10 s deadline succeeded")
            } catch {
                // 120 seconds is past the 10-second deadline: no retry is started.
                #expect(error.code == .deadlineExceeded, "\(error)")
                #expect(error.retryAfter == .seconds(120))
                #expect(error.httpStatusCode == 429)
                #expect(error.responseHeaders["retry-after"] == ["00000000000000000000120"])
            }
            #expect(harness.fake.requests.count == 1)
        }
    }

    @Test func anErrorCarriesTheResponseHeaders() async throws {
        try await Harness.with { harness in
            var reply = FakeAppStoreServerAPI.Response.apiError(404, code: 4_040_010, message: "Transaction id not found.")
            reply.headers.append(.init(name: "X-Apple-Request-UUID", value: "abc-123"))
            harness.fake.enqueue(.response(reply))
            let client = try harness.client()
            do throws(AppStoreServerAPIError) {
                _ = try await client.getTransactionInfo(transactionId: "1")
                Issue.record("a 404 succeeded")
            } catch {
                #expect(error.apiError == .transactionIdNotFound)
                #expect(error.responseHeaders["x-apple-request-uuid"] == ["abc-123"])
                #expect(error.retryAfter == nil)
            }
        }
    }

    @Test func theDefaultRequestTimeoutIsThirtySeconds() {
        #expect(AppStoreServerAPIClient.Options().requestTimeout == .seconds(30))
    }

    @Test func noSecretInADescriptionDumpOrMirrorOfAClient() async throws {
        try await Harness.with { harness in
            let client = try harness.client()
            // A call makes the client sign and cache a bearer token.
            harness.fake.setTransactionInfo(try harness.transaction("1"), for: "1")
            _ = try await client.getTransactionInfo(transactionId: "1")
            let token = try #require(harness.fake.requests.last?.authorization?.replacingOccurrences(of: "Bearer ", with: ""))
            var dumped = ""
            dump(client, to: &dumped)
            var dumpedKey = ""
            dump(harness.signingKey, to: &dumpedKey)
            let keyBody = try Shared.apiKey.get().pemEncoded.split(separator: "\n").filter { !$0.hasPrefix("-----") }
            for text in [dumped, dumpedKey, String(describing: client), String(reflecting: client),
                         String(describing: Mirror(reflecting: client).children.map(\.value))] {
                #expect(!text.contains(token), "the bearer token shows in \(text)")
                for line in keyBody { #expect(!text.contains(line), "key material shows in \(text)") }
            }
            #expect(dumped.contains(Harness.bundleId))
        }
    }
}
#endif
