#if ServerAPIClient
import AppStoreServerAPI
import AppStoreVerification
import AppStoreVerificationTesting
import Foundation

/// What every test shares: one test PKI (Apple-shaped) and one API key.
enum Shared {
    static let pki = Result { () throws(AppStoreTestingError) -> TestPKI in try TestPKI() }
    static let apiKey = Result { () throws(AppStoreTestingError) -> TestPrivateKey in try TestPrivateKey(generating: .p256) }
}

/// A fake App Store on 127.0.0.1, a minter and a verifier trusting the test PKI, for one test.
final class Harness: Sendable {
    static let keyId = "TESTKEY123"
    static let issuerId = "57246542-96fe-1a63-e053-0824d011072a"
    static let bundleId = "com.example.app"

    let store: FakeAppStore
    let server: FakeAppStoreServer
    let minter: SignedDataMinter
    let verifier: SignedDataVerifier
    let signingKey: SigningKey

    /// Options that keep tests short: small backoffs, a 10-second deadline.
    static let fastOptions = AppStoreServerAPIClient.Options(deadline: .seconds(10), requestTimeout: .seconds(5), maximumAttempts: 4,
                                                             initialBackoff: .milliseconds(50), maximumBackoff: .milliseconds(200))

    private init(store: FakeAppStore, server: FakeAppStoreServer, minter: SignedDataMinter, verifier: SignedDataVerifier, signingKey: SigningKey) {
        self.store = store
        self.server = server
        self.minter = minter
        self.verifier = verifier
        self.signingKey = signingKey
    }

    /// Runs `body` with a started harness and closes the server afterwards, whatever happens.
    static func with(_ body: (Harness) async throws -> Void) async throws {
        let pki = try Shared.pki.get()
        let apiKey = try Shared.apiKey.get()
        let signingKey = try SigningKey(pem: apiKey.pemEncoded)
        let store = try FakeAppStore(apiPublicKeyDER: signingKey.publicKeyDER, keyId: keyId, issuerId: issuerId, bundleId: bundleId)
        let server = try await FakeAppStoreServer(store: store)
        let harness = Harness(store: store, server: server, minter: try SignedDataMinter(pki: pki),
                              verifier: try SignedDataVerifier(configuration: pki.verifierConfiguration(bundleId: bundleId, environment: .sandbox)),
                              signingKey: signingKey)
        do {
            try await body(harness)
        } catch {
            await server.close()
            throw error
        }
        await server.close()
    }

    /// A client of the fake App Store; its bearer tokens read `clock`, and its deadline and waits
    /// between attempts `retryClock` (a ``TestRetryClock`` waits no real time).
    func client(options: AppStoreServerAPIClient.Options = Harness.fastOptions, keyId: String = Harness.keyId,
                clock: @escaping @Sendable () -> Date = { Date() },
                retryClock: any RetryClock = ContinuousRetryClock()) throws -> AppStoreServerAPIClient {
        try AppStoreServerAPIClient(signingKey: signingKey, keyId: keyId, issuerId: Self.issuerId, bundleId: Self.bundleId,
                                    baseURL: server.baseURL, verifier: verifier, options: options, clock: clock, retryClock: retryClock)
    }

    /// A signed transaction.
    func transaction(_ id: String, productId: String = "com.example.pro", originalTransactionId: String? = nil,
                     type: ProductType = .nonConsumable, expiresDate: Date? = nil, groupId: String? = nil) throws -> String {
        try minter.transaction(Transaction(transactionId: id, productId: productId, originalTransactionId: originalTransactionId,
                                           subscriptionGroupIdentifier: groupId, purchaseDate: Date(timeIntervalSinceNow: -3600),
                                           expiresDate: expiresDate, type: type))
    }

    /// Waits until the fake App Store has received `count` requests (the event a test waits for,
    /// rather than a fixed sleep); false if that takes longer than `limit`.
    func waitForRequests(_ count: Int, limit: Duration = .seconds(60)) async -> Bool {
        let clock = ContinuousClock()
        let end = clock.now + limit
        while store.requests.count < count {
            guard clock.now < end else { return false }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return true
    }

    /// `jws` with its payload's `productId` changed and the signature kept: verification must fail.
    static func tampered(_ jws: String) throws -> String {
        let parts = jws.split(separator: ".").map(String.init)
        guard parts.count == 3 else { throw POSIXError(.EINVAL) }
        let payload = try Base64.decodeURL(parts[1].utf8)
        let text = String(decoding: payload, as: UTF8.self).replacingOccurrences(of: "com.example.pro", with: "com.example.gold")
        var encoded = Data(text.utf8).base64EncodedString()
        encoded = encoded.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        return [parts[0], encoded, parts[2]].joined(separator: ".")
    }
}
/// A retry clock that waits no real time: every wait is recorded and moves the clock forward by its
/// length, so tests of backoff, `Retry-After` and deadlines assert what the client waited, not how
/// long they took.
final class TestRetryClock: RetryClock, @unchecked Sendable {
    private let lock = NSLock()
    private var now: Duration = .zero
    private var waits: [Duration] = []

    var elapsed: Duration { lock.withLock { now } }

    /// Every wait asked for, in order.
    var sleeps: [Duration] { lock.withLock { waits } }

    func sleep(for duration: Duration) async throws {
        try Task.checkCancellation()
        lock.withLock {
            waits.append(duration)
            now += duration
        }
    }
}
#endif
