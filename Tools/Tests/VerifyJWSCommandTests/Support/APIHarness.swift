import AppStoreVerificationTestSupport
import AppStoreServerAPITesting
import AppStoreVerification
import AppStoreVerificationTesting
import Foundation

/// AppStoreServerAPITesting's fake App Store on 127.0.0.1 for one `verify-jws api` test, with a test
/// PKI (the data's signer) and an API key (the bearer token's) shared by every test.
final class APIHarness: Sendable {
    static let keyId = "TESTKEY123"
    static let issuerId = "57246542-96fe-1a63-e053-0824d011072a"
    static let bundleId = "com.example.app"
    static let pki = Result { () throws(AppStoreTestingError) -> TestPKI in try TestPKI() }
    static let apiKey = Result { () throws(AppStoreTestingError) -> TestPrivateKey in try TestPrivateKey(generating: .p256) }

    let fake: FakeAppStoreServerAPI
    let minter: SignedDataMinter

    private init(fake: FakeAppStoreServerAPI, minter: SignedDataMinter) {
        self.fake = fake
        self.minter = minter
    }

    /// Runs `body` with a started fake (pages of two items), stopped afterwards whatever happens.
    static func with(_ body: (APIHarness) async throws -> Void) async throws {
        let signingKey = try SigningKey(pem: try apiKey.get().pemEncoded)
        let minter = try SignedDataMinter(pki: try pki.get())
        try await FakeAppStoreServerAPI.withServer(keyId: keyId, issuerId: issuerId, bundleId: bundleId, publicKey: signingKey.publicKeyDER) { fake in
            fake.pageSize = 2
            try await body(APIHarness(fake: fake, minter: minter))
        }
    }

    /// A signed transaction bought an hour ago.
    func transaction(_ id: String, productId: String = "com.example.pro", originalTransactionId: String? = nil,
                     type: ProductType = .nonConsumable, expiresDate: Date? = nil, groupId: String? = nil) throws -> String {
        try minter.transaction(Transaction(transactionId: id, productId: productId, originalTransactionId: originalTransactionId,
                                           subscriptionGroupIdentifier: groupId, purchaseDate: Date(timeIntervalSinceNow: -3600),
                                           expiresDate: expiresDate, type: type))
    }

    /// `jws` with its payload's `productId` changed and the signature kept: verification must fail.
    static func tampered(_ jws: String) throws -> String {
        let parts = jws.split(separator: ".").map(String.init)
        guard parts.count == 3, let payload = base64URLDecoded(parts[1]) else { throw CocoaError(.coderInvalidValue) }
        let text = String(decoding: payload, as: UTF8.self).replacingOccurrences(of: "com.example.pro", with: "com.example.gold")
        return [parts[0], base64URLEncoded(Data(text.utf8)), parts[2]].joined(separator: ".")
    }
}
