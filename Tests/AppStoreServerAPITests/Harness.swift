#if ServerAPIClient
import AppStoreServerAPI
import AppStoreServerAPITesting
import AppStoreVerification
import AppStoreVerificationTesting
import Foundation

/// What every test shares: one test PKI (Apple-shaped) and one API key.
enum Shared {
    static let pki = Result { () throws(AppStoreTestingError) -> TestPKI in try TestPKI() }
    static let apiKey = Result { () throws(AppStoreTestingError) -> TestPrivateKey in try TestPrivateKey(generating: .p256) }
}

/// A fake App Store on 127.0.0.1 (AppStoreServerAPITesting's, with the routes it does not serve
/// added by ``ExtraRoutes``), a minter and a verifier trusting the test PKI, for one test.
final class Harness: Sendable {
    static let keyId = "TESTKEY123"
    static let issuerId = "57246542-96fe-1a63-e053-0824d011072a"
    static let bundleId = "com.example.app"

    let fake: FakeAppStoreServerAPI
    let extra: ExtraRoutes
    let minter: SignedDataMinter
    let verifier: SignedDataVerifier
    let signingKey: SigningKey

    /// Options that keep tests short: small backoffs; a deadline generous enough for a loaded machine
    /// (every suite runs in one process, in parallel, and a test can wait tens of seconds for a thread).
    static let fastOptions = AppStoreServerAPIClient.Options(deadline: .seconds(120), requestTimeout: .seconds(60), maximumAttempts: 4,
                                                             initialBackoff: .milliseconds(50), maximumBackoff: .milliseconds(200))

    private init(fake: FakeAppStoreServerAPI, extra: ExtraRoutes, minter: SignedDataMinter, verifier: SignedDataVerifier, signingKey: SigningKey) {
        self.fake = fake
        self.extra = extra
        self.minter = minter
        self.verifier = verifier
        self.signingKey = signingKey
    }

    /// Runs `body` with a started harness and stops the fake afterwards, whatever happens. Pages
    /// hold two items.
    static func with(_ body: (Harness) async throws -> Void) async throws {
        let pki = try Shared.pki.get()
        let apiKey = try Shared.apiKey.get()
        let signingKey = try SigningKey(pem: apiKey.pemEncoded)
        let minter = try SignedDataMinter(pki: pki)
        let verifier = try SignedDataVerifier(configuration: pki.verifierConfiguration(bundleId: bundleId, environment: .sandbox))
        try await FakeAppStoreServerAPI.withServer(keyId: keyId, issuerId: issuerId, bundleId: bundleId, publicKey: signingKey.publicKeyDER) { fake in
            fake.pageSize = 2
            let extra = ExtraRoutes(fake: fake)
            fake.setFallbackRoute { extra.answer($0) }
            try await body(Harness(fake: fake, extra: extra, minter: minter, verifier: verifier, signingKey: signingKey))
        }
    }

    /// A client of the fake App Store on `clock`: its bearer tokens and `Retry-After` instants read
    /// its `now`, its deadline, pacing and waits between attempts its clock (a
    /// `ManualClock(advancesWhenSleeping: true)` waits no real time and records the waits).
    func client(options: AppStoreServerAPIClient.Options = Harness.fastOptions, keyId: String = Harness.keyId,
                clock: AppStoreClock = .system) throws -> AppStoreServerAPIClient {
        AppStoreServerAPIClient(signingKey: signingKey, keyId: keyId, issuerId: Self.issuerId, bundleId: Self.bundleId,
                                environment: try .baseURL(fake.baseURL), verifier: .offline(verifier), options: options, clock: clock)
    }

    /// A clock whose every wait moves it at once to the wait's end and is recorded
    /// (``ManualClock/sleeps``): tests of backoff, `Retry-After`, pacing and deadlines assert what
    /// the client waited, not how long they took.
    static func skippingClock(date: Date = Date()) -> ManualClock {
        ManualClock(date: date, advancesWhenSleeping: true)
    }

    /// A signed transaction.
    func transaction(_ id: String, productId: String = "com.example.pro", originalTransactionId: String? = nil,
                     type: ProductType = .nonConsumable, expiresDate: Date? = nil, groupId: String? = nil) throws -> String {
        try minter.transaction(Transaction(transactionId: id, productId: productId, originalTransactionId: originalTransactionId,
                                           subscriptionGroupIdentifier: groupId, purchaseDate: Date(timeIntervalSinceNow: -3600),
                                           expiresDate: expiresDate, type: type))
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

#endif
