// The AppStoreServerAPITesting article's Swift blocks (Sources/AppStoreServerAPITesting/
// Documentation.docc/TestingYourAPIClient.md), as they appear there: a user's test of their own API
// client code with the fake App Store, compiled and run. ProductCatalogSnippetTests checks that every
// line of the article's blocks appears here, in order.
#if ServerAPIClient
import AppStoreServerAPI
import AppStoreServerAPITesting
import AppStoreVerification
import AppStoreVerificationTesting
import Foundation
import Testing

/// The code under test: what a customer owns, from Apple's record.
struct CustomerSync {
    let client: AppStoreServerAPIClient

    func ownedProducts(anyTransactionId: String) async throws -> Set<String> {
        var engine = EntitlementEngine()
        for try await transaction in client.transactionHistory(transactionId: anyTransactionId) { engine.ingest(transaction) }
        return Set(engine.currentEntitlements(at: Date()).map(\.productId))
    }
}

@Suite struct CustomerSyncTests {
    @Test func theWholeHistoryAcrossPagesAndARateLimit() async throws {
        let pki = try TestPKI()
        let minter = try SignedDataMinter(pki: pki)
        // Any P-256 key stands for your In-App Purchase key: the fake checks tokens with its public half.
        let apiKey = try SigningKey(pem: try TestPrivateKey(generating: .p256).pemEncoded)
        let issuerId = "57246542-96fe-1a63-e053-0824d011072a"

        try await FakeAppStoreServerAPI.withServer(keyId: "TESTKEY123", issuerId: issuerId, bundleId: "com.example.app",
                                                   publicKey: apiKey.publicKeyDER) { fake in
            let purchases = try (1...5).map { index in
                try minter.transaction(Transaction(transactionId: "\(index)", productId: index == 3 ? "com.example.pro" : "com.example.coins",
                                                   type: index == 3 ? .nonConsumable : .consumable))
            }
            fake.setTransactionHistory(purchases, for: "1")
            fake.pageSize = 2                          // three pages
            fake.enqueue(.rateLimited(retryAfter: 0))  // Apple's 429 first, then the pages

            let client = AppStoreServerAPIClient(signingKey: apiKey, keyId: "TESTKEY123", issuerId: issuerId, bundleId: "com.example.app",
                                                 environment: try .baseURL(fake.baseURL),
                                                 verifier: .offline(try SignedDataVerifier(configuration: pki.verifierConfiguration())))
            let sync = CustomerSync(client: client)

            #expect(try await sync.ownedProducts(anyTransactionId: "1") == ["com.example.pro"])
            // The 429, then one request per page, each naming the revision the page before gave.
            #expect(fake.requests.map { $0.queryValues("revision") } == [[], [], ["page-2"], ["page-4"]])

            // A transaction Apple does not know: 404 with Apple's error code.
            await #expect {
                _ = try await sync.ownedProducts(anyTransactionId: "404")
            } throws: { error in
                (error as? AppStoreServerAPIError)?.apiError == .transactionIdNotFound
            }
        }
    }
}

/// AnsweringRefundRequests.md (Sources/AppStoreServerAPI/Documentation.docc): answering a
/// `CONSUMPTION_REQUEST` with the library alone, compiled here.
enum AnsweringRefundRequestsSnippet {
    static func answer(_ notification: ResponseBodyV2DecodedPayload, transaction: Transaction,
                       client: AppStoreServerAPIClient, customerConsented: Bool,
                       consumedMilliunits: Int32?) async throws {
        guard notification.notificationType == .consumptionRequest else { return }
        // Apple requires the customer's consent: without it, send nothing.
        guard customerConsented else { return }
        let request = ConsumptionRequest(
            customerConsented: true,
            sampleContentProvided: false,
            deliveryStatus: .delivered,
            // Apple computes an auto-renewable subscription's share from the time elapsed.
            consumptionPercentage: transaction.type == .autoRenewableSubscription ? nil : consumedMilliunits,
            refundPreference: .decline)
        // Checked against Apple's rules first: a request Apple would refuse is not sent.
        try await client.sendConsumptionInformation(transactionId: transaction.transactionId,
                                                    request: request, productType: transaction.type)
    }
}
#endif
