#if ServerAPIClient
import AppStoreServerAPI
import AppStoreServerAPITesting
import AppStoreVerification
import AppStoreVerificationTesting
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Testing

/// AppStoreServerAPITesting's fake on its own, through raw HTTP requests: the bearer token checked
/// claim by claim as Apple does, Apple's JSON shapes, the scripted answers, and a clean stop.
@Suite(.timeLimit(.minutes(1)))
struct FakeAppStoreServerAPITests {
    /// A bearer token with these header fields and claims, signed by `key`.
    static func token(header: [String: Any], claims: [String: Any], key: SigningKey) throws -> String {
        func segment(_ object: [String: Any]) throws -> String {
            base64URL(try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
        }
        let input = "\(try segment(header)).\(try segment(claims))"
        let signature = try key.sign(Data(input.utf8), encoding: .raw)
        return "\(input).\(base64URL(signature))"
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    static var goodHeader: [String: Any] { ["alg": "ES256", "typ": "JWT", "kid": Harness.keyId] }
    static var goodClaims: [String: Any] {
        let now = Int(Date().timeIntervalSince1970)
        return ["iss": Harness.issuerId, "aud": "appstoreconnect-v1", "bid": Harness.bundleId, "iat": now, "exp": now + 1200]
    }

    /// One raw request: the status, the headers and the body.
    static func send(_ url: String, method: HTTPMethod = .GET, authorization: String?, body: Data? = nil,
                     timeout: TimeAmount = .seconds(10)) async throws -> (status: Int, headers: HTTPHeaders, body: Data) {
        var request = HTTPClientRequest(url: url)
        request.method = method
        if let authorization { request.headers.add(name: "Authorization", value: authorization) }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        let response = try await HTTPClient.shared.execute(request, timeout: timeout)
        let bytes = try await response.body.collect(upTo: 1 << 20)
        return (Int(response.status.code), response.headers, Data(bytes.readableBytesView))
    }

    @Test func theBearerTokenIsCheckedAsAppleChecksIt() async throws {
        try await Harness.with { harness in
            let url = harness.fake.baseURL + "/inApps/v1/transactions/1"
            let other = try SigningKey(pem: try TestKeys.other.get())
            var cases: [(String, String?)] = [("no header", nil), ("not bearer", "Basic abc"), ("not a JWS", "Bearer abc.def")]
            func token(header: [String: Any] = FakeAppStoreServerAPITests.goodHeader, claims: [String: Any] = FakeAppStoreServerAPITests.goodClaims, key: SigningKey? = nil) throws -> String {
                "Bearer " + (try Self.token(header: header, claims: claims, key: key ?? harness.signingKey))
            }
            var header = Self.goodHeader
            header["alg"] = "ES384"
            cases.append(("alg", try token(header: header)))
            header = Self.goodHeader
            header["typ"] = "JWS"
            cases.append(("typ", try token(header: header)))
            header = Self.goodHeader
            header["kid"] = "OTHERKEY"
            cases.append(("kid", try token(header: header)))
            cases.append(("signature", try token(key: other)))
            for (claim, value) in [("iss", "another-issuer"), ("aud", "appstoreconnect-v2"), ("bid", "com.example.other")] {
                var claims = Self.goodClaims
                claims[claim] = value
                cases.append((claim, try token(claims: claims)))
            }
            let now = Int(Date().timeIntervalSince1970)
            var claims = Self.goodClaims
            claims["exp"] = now - 1
            claims["iat"] = now - 600
            cases.append(("expired", try token(claims: claims)))
            claims = Self.goodClaims
            claims["exp"] = now + 7200
            cases.append(("lifetime", try token(claims: claims)))
            claims = Self.goodClaims
            claims["exp"] = nil
            cases.append(("exp missing", try token(claims: claims)))

            for (name, authorization) in cases {
                let response = try await Self.send(url, authorization: authorization)
                #expect(response.status == 401, "\(name)")
                #expect(response.body.isEmpty, "\(name): Apple's 401 has no body")
                #expect(response.headers.first(name: "X-Fake-App-Store-Refusal") != nil, "\(name)")
            }
            #expect(harness.fake.acceptedTokens.isEmpty)
            #expect(harness.fake.requests.count == cases.count)

            let good = try await Self.send(url, authorization: try token())
            #expect(good.status == 404)
            #expect(String(decoding: good.body, as: UTF8.self) == #"{"errorCode":4040010,"errorMessage":"Transaction id not found."}"#)
            #expect(harness.fake.acceptedTokens.count == 1)
        }
    }

    @Test func answersHaveApplesShapes() async throws {
        try await Harness.with { harness in
            let authorization = "Bearer " + (try Self.token(header: Self.goodHeader, claims: Self.goodClaims, key: harness.signingKey))
            harness.fake.setTransactionHistory(["a", "b", "c"], for: "1")
            let first = try await Self.send(harness.fake.baseURL + "/inApps/v2/history/1", authorization: authorization)
            #expect(first.headers.first(name: "Content-Type") == "application/json")
            #expect(String(decoding: first.body, as: UTF8.self)
                == #"{"appAppleId":1234,"bundleId":"com.example.app","environment":"Sandbox","hasMore":true,"revision":"page-2","signedTransactions":["a","b"]}"#)
            let last = try await Self.send(harness.fake.baseURL + "/inApps/v2/history/1?revision=page-2", authorization: authorization)
            #expect(String(decoding: last.body, as: UTF8.self).contains(#""hasMore":false,"revision":"page-3","signedTransactions":["c"]"#))
            let unknownRevision = try await Self.send(harness.fake.baseURL + "/inApps/v2/history/1?revision=zzz", authorization: authorization)
            #expect(unknownRevision.status == 400)
            #expect(String(decoding: unknownRevision.body, as: UTF8.self).contains("4000005"))

            harness.fake.setSubscriptionStatuses([FakeAppStoreServerAPI.SubscriptionGroupStatus(subscriptionGroupIdentifier: "g1", lastTransactions: [
                FakeAppStoreServerAPI.LastTransaction(status: .billingRetry, originalTransactionId: "1", signedTransactionInfo: "t", signedRenewalInfo: "r"),
            ])], for: "1")
            let statuses = try await Self.send(harness.fake.baseURL + "/inApps/v1/subscriptions/1", authorization: authorization)
            #expect(String(decoding: statuses.body, as: UTF8.self)
                == #"{"appAppleId":1234,"bundleId":"com.example.app","data":[{"lastTransactions":[{"originalTransactionId":"1","signedRenewalInfo":"r","signedTransactionInfo":"t","status":3}],"subscriptionGroupIdentifier":"g1"}],"environment":"Sandbox"}"#)

            harness.fake.setNotificationHistory([FakeAppStoreServerAPI.NotificationHistoryEntry(
                signedPayload: "n", sendAttempts: [FakeAppStoreServerAPI.SendAttempt(date: Date(timeIntervalSince1970: 1_700_000_000.5), result: .timedOut)])])
            let history = try await Self.send(harness.fake.baseURL + "/inApps/v1/notifications/history", method: .POST, authorization: authorization,
                                              body: Data(#"{"startDate":1,"endDate":2}"#.utf8))
            #expect(String(decoding: history.body, as: UTF8.self)
                == #"{"hasMore":false,"notificationHistory":[{"sendAttempts":[{"attemptDate":1700000000500,"sendAttemptResult":"TIMED_OUT"}],"signedPayload":"n"}],"paginationToken":"page-1"}"#)
            let noDates = try await Self.send(harness.fake.baseURL + "/inApps/v1/notifications/history", method: .POST, authorization: authorization, body: Data("{}".utf8))
            #expect(noDates.status == 400)
            #expect(String(decoding: noDates.body, as: UTF8.self).contains("4000015"))
            let backwards = try await Self.send(harness.fake.baseURL + "/inApps/v1/notifications/history", method: .POST, authorization: authorization,
                                                body: Data(#"{"startDate":2,"endDate":1}"#.utf8))
            #expect(backwards.status == 400)
            #expect(harness.fake.requests.compactMap(\.notificationHistoryRange) == [1..<2])
        }
    }

    @Test func scriptedAnswersAreApplesAndComeInOrder() async throws {
        try await Harness.with { harness in
            let authorization = "Bearer " + (try Self.token(header: Self.goodHeader, claims: Self.goodClaims, key: harness.signingKey))
            harness.fake.setTransactionInfo("jws", for: "1")
            harness.fake.enqueue(.unauthorized, .notFound(.originalTransactionIdNotFound), .rateLimited(retryAfter: 7, form: .seconds), .serverError(status: 503, code: .generalInternalRetryable), .rateLimited(retryAfter: 7))
            let url = harness.fake.baseURL + "/inApps/v1/transactions/1"
            var answers: [(status: Int, headers: HTTPHeaders, body: Data)] = []
            let before = Int64(Date().timeIntervalSince1970 * 1000)
            for _ in 0..<6 { answers.append(try await Self.send(url, authorization: authorization)) }
            let after = Int64(Date().timeIntervalSince1970 * 1000)
            #expect(answers.map(\.status) == [401, 404, 429, 503, 429, 200])
            // Apple's form by default: the UNIX time, in milliseconds, 7 s from when it answered.
            let instant = try #require(answers[4].headers.first(name: "Retry-After").flatMap { Int64($0) })
            #expect(instant >= before + 7_000 && instant <= after + 7_000)
            #expect(answers[0].body.isEmpty)
            #expect(String(decoding: answers[1].body, as: UTF8.self).contains("4040005"))
            #expect(answers[2].headers.first(name: "Retry-After") == "7")
            #expect(String(decoding: answers[2].body, as: UTF8.self).contains("4290000"))
            #expect(String(decoding: answers[3].body, as: UTF8.self).contains("5000001"))
            #expect(String(decoding: answers[5].body, as: UTF8.self) == #"{"signedTransactionInfo":"jws"}"#)
        }
    }

    @Test func stoppingClosesAConnectionLeftUnanswered() async throws {
        let key = try SigningKey(pem: try Shared.apiKey.get().pemEncoded)
        let fake = try await FakeAppStoreServerAPI.start(keyId: Harness.keyId, issuerId: Harness.issuerId, bundleId: Harness.bundleId, publicKey: key.publicKeyDER)
        fake.enqueue(.noAnswer)
        let authorization = "Bearer " + (try Self.token(header: Self.goodHeader, claims: Self.goodClaims, key: key))
        let pending = Task { try await Self.send(fake.baseURL + "/inApps/v1/transactions/1", authorization: authorization, timeout: .seconds(50)) }
        // Wait until the request arrived (an event, bounded by the suite's time limit).
        await fake.waitForRequests(1)
        await fake.stop()
        await #expect(throws: (any Error).self) { _ = try await pending.value }
        await #expect(throws: (any Error).self) { _ = try await Self.send(fake.baseURL + "/", authorization: nil, timeout: .seconds(5)) }
    }

    @Test func aKeyThatIsNotAPublicKeyIsRefused() async throws {
        let error = await #expect(throws: FakeAppStoreServerAPIError.self) {
            _ = try await FakeAppStoreServerAPI.start(keyId: "K", issuerId: "I", bundleId: "b", publicKey: Data("not a key".utf8))
        }
        #expect(error?.code == .invalidPublicKey)
        #expect(error?.description.hasPrefix("invalidPublicKey: the public key is not a DER SubjectPublicKeyInfo") == true)
    }
}

/// A second API key, for tokens the fake must refuse.
enum TestKeys {
    static let other = Result { () throws -> String in try TestPrivateKey(generating: .p256).pemEncoded }
}
#endif
