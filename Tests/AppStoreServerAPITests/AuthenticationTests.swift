#if ServerAPIClient
import AppStoreServerAPI
import AppStoreServerAPITesting
import AppStoreVerification
import AppStoreVerificationTesting
import Foundation
import Testing

@Suite(.timeLimit(.minutes(1)))
struct AuthenticationTests {
    /// The header and claims of the bearer token a request carried.
    static func decodedToken(_ request: FakeAppStoreServerAPI.Request?) throws -> (header: [String: Any], claims: [String: Any]) {
        let token = try #require(request?.authorization?.dropFirst("Bearer ".count))
        let parts = token.split(separator: ".")
        try #require(parts.count == 3)
        let header = try #require(try JSONSerialization.jsonObject(with: try Base64.decodeURL(parts[0].utf8)) as? [String: Any])
        let claims = try #require(try JSONSerialization.jsonObject(with: try Base64.decodeURL(parts[1].utf8)) as? [String: Any])
        return (header, claims)
    }

    @Test func theTokenIsAppleShapedAndAccepted() async throws {
        try await Harness.with { harness in
            harness.fake.setTransactionHistory([], for: "1")
            let before = Int64(Date().timeIntervalSince1970.rounded(.down))
            _ = try await harness.client().getTransactionHistory(transactionId: "1")
            let after = Int64(Date().timeIntervalSince1970.rounded(.up))
            let (header, claims) = try Self.decodedToken(harness.fake.requests.first)
            #expect(header["alg"] as? String == "ES256")
            #expect(header["kid"] as? String == Harness.keyId)
            #expect(header["typ"] as? String == "JWT")
            #expect(claims["iss"] as? String == Harness.issuerId)
            #expect(claims["aud"] as? String == "appstoreconnect-v1")
            #expect(claims["bid"] as? String == Harness.bundleId)
            let iat = try #require((claims["iat"] as? NSNumber)?.int64Value)
            let exp = try #require((claims["exp"] as? NSNumber)?.int64Value)
            #expect(exp - iat == 30 * 60)
            // Issued during the call (whole seconds), however long the call took.
            #expect(before <= iat && iat <= after)
            #expect(harness.fake.acceptedTokens.count == 1)
        }
    }

    @Test func theTokenIsReusedUntilNearExpiryThenRenewed() async throws {
        try await Harness.with { harness in
            harness.fake.setTransactionHistory([], for: "1")
            let clock = ManualClock()
            let client = try harness.client(clock: .manual(clock))
            for _ in 0..<3 { _ = try await client.getTransactionHistory(transactionId: "1") }
            #expect(harness.fake.acceptedTokens.count == 1)
            clock.advance(by: .seconds(24 * 60))  // 6 minutes left: still reused (the margin is 5)
            _ = try await client.getTransactionHistory(transactionId: "1")
            #expect(harness.fake.acceptedTokens.count == 1)
            clock.advance(by: .seconds(2 * 60))  // 4 minutes left: renewed
            _ = try await client.getTransactionHistory(transactionId: "1")
            #expect(harness.fake.acceptedTokens.count == 2)
            let (_, claims) = try Self.decodedToken(harness.fake.requests.last)
            let iat = try #require((claims["iat"] as? NSNumber)?.int64Value)
            #expect(iat >= Int64(clock.date.timeIntervalSince1970) - 1)
        }
    }

    @Test func anExpiredTokenIsRefusedWithTheLikelyCausesAndNotRetried() async throws {
        try await Harness.with { harness in
            harness.fake.setTransactionHistory([], for: "1")
            let clock = ManualClock(date: Date(timeIntervalSinceNow: -2 * 3600))  // this machine's clock is two hours behind
            let client = try harness.client(clock: .manual(clock))
            let error = await apiError { _ = try await client.getTransactionHistory(transactionId: "1") }
            #expect(error?.code == .unauthorized)
            #expect(error?.httpStatusCode == 401)
            #expect(error?.message.contains("clock") == true)
            #expect(error?.message.contains("key ID") == true)
            #expect(error?.message.contains("issuer ID") == true)
            #expect(harness.fake.requests.count == 1)
            let token = try #require(harness.fake.requests.first?.authorization?.dropFirst("Bearer ".count))
            #expect(error.map { "\($0)".contains(token) } == false)
        }
    }

    @Test func aWrongKeyIdIsRefused() async throws {
        try await Harness.with { harness in
            let error = await apiError { _ = try await harness.client(keyId: "WRONGKEY").getTransactionInfo(transactionId: "1") }
            #expect(error?.code == .unauthorized)
            #expect(error?.message.contains("WRONGKEY") == true)
        }
    }

    @Test func baseURLsAreHTTPSOrHTTPToLoopbackOnly() throws {
        let key = try SigningKey(pem: try Shared.apiKey.get().pemEncoded)
        let verifier = try SignedDataVerifier(configuration: try Shared.pki.get().verifierConfiguration())
        func make(_ url: String) throws(AppStoreServerAPIError) -> AppStoreServerAPIClient {
            AppStoreServerAPIClient(signingKey: key, keyId: "K", issuerId: "I", bundleId: "B", environment: try .baseURL(url), verifier: .offline(verifier))
        }
        for url in ["http://127.0.0.1:8080", "http://localhost:1/", "http://[::1]:8080", "https://api.example.com", "HTTP://LOCALHOST"] {
            #expect(throws: Never.self, "\(url)") { _ = try make(url) }
        }
        #expect(try make("http://localhost:1/").baseURL == "http://localhost:1")
        for url in ["http://example.com", "http://127.0.0.2", "http://10.0.0.1", "ftp://127.0.0.1", "127.0.0.1:80", "https://u:p@example.com", "https://example.com?x=1"] {
            #expect("\(url)") { _ = try make(url) } throws: { error in
                (error as? AppStoreServerAPIError)?.code == .invalidRequest
            }
        }
        let refused = try? make("http://api.storekit.apple.com")
        #expect(refused == nil)
        let production = AppStoreServerAPIClient(signingKey: key, keyId: "K", issuerId: "I", bundleId: "B", environment: .production, verifier: .offline(verifier))
        #expect(production.baseURL == "https://api.storekit.apple.com")
        let sandbox = AppStoreServerAPIClient(signingKey: key, keyId: "K", issuerId: "I", bundleId: "B", environment: .sandbox, verifier: .offline(verifier))
        #expect(sandbox.baseURL == "https://api.storekit-sandbox.apple.com")
    }

    @Test func everyAppleErrorCodeIsDocumented() {
        #expect(APIErrorCode.documentedValues.count == 89)
        #expect(Set(APIErrorCode.documentedValues).count == 89)
        #expect(APIErrorCode.rateLimitExceeded.rawValue == 4290000)
        #expect(APIErrorCode.transactionIdNotFound.rawValue == 4040010)
    }
}
#endif
