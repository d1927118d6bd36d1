import AppStoreServerAPI
import AppStoreServerAPITesting
import AppStoreVerification
import AppStoreVerificationTestSupport
import AppStoreVerificationTesting
import Foundation
import ReceiptServerCore
import Testing

/// `POST /transactions/{transactionId}/reconcile` against a fake App Store Server API on
/// 127.0.0.1 whose history pages carry transactions minted by the test PKI, one of them tampered.
@Suite("Reconcile: a customer's history from the App Store Server API", .timeLimit(.minutes(2)))
struct ReconcileTests {
    static let keyId = "TESTKEY123"
    static let issuerId = "57246542-96fe-1a63-e053-0824d011072a"
    static let customer = "3f1c2b8e-6a4d-4f0e-9b7a-2c5d8e1f0a9b"
    static let options = AppStoreServerAPIClient.Options(deadline: .seconds(20), requestTimeout: .seconds(10), maximumAttempts: 2,
                                                         initialBackoff: .milliseconds(50), maximumBackoff: .milliseconds(200))

    /// The PKI, the minter and a customer's history: a lifetime unlock, a monthly subscription and
    /// its renewal, a transaction without appAccountToken, and a tampered one.
    struct World {
        let pki: TestPKI
        let apiKey: SigningKey
        let history: [String]
        let tamperedId = "3000000000000005"

        init() throws {
            pki = try TestPKI()
            apiKey = try SigningKey(pem: try TestPrivateKey(generating: .p256).pemEncoded)
            let minter = try SignedDataMinter(pki: pki)
            let hourAgo = Date(timeIntervalSinceNow: -3600)
            let inAMonth = Date(timeIntervalSinceNow: 30 * 86_400)
            let token = ReconcileTests.customer
            history = [
                try minter.transaction(Transaction(transactionId: "3000000000000001", productId: "com.example.app.lifetime",
                                                   purchaseDate: hourAgo, type: .nonConsumable, appAccountToken: token)),
                try minter.transaction(Transaction(transactionId: "3000000000000002", productId: "com.example.app.monthly",
                                                   subscriptionGroupIdentifier: "21000001", purchaseDate: hourAgo.addingTimeInterval(-30 * 86_400),
                                                   expiresDate: hourAgo, type: .autoRenewableSubscription, appAccountToken: token)),
                try minter.transaction(Transaction(transactionId: "3000000000000003", productId: "com.example.app.monthly",
                                                   originalTransactionId: "3000000000000002", subscriptionGroupIdentifier: "21000001",
                                                   purchaseDate: hourAgo, expiresDate: inAMonth, type: .autoRenewableSubscription, appAccountToken: token)),
                // No appAccountToken of its own: the request body names the customer.
                try minter.transaction(Transaction(transactionId: "3000000000000004", productId: "com.example.app.coins",
                                                   purchaseDate: hourAgo, type: .consumable)),
                Self.tampered(try minter.transaction(Transaction(transactionId: tamperedId, productId: "com.example.app.pro",
                                                                 purchaseDate: hourAgo, type: .nonConsumable, appAccountToken: token))),
            ]
        }

        /// `jws` with its payload's product changed and the signature kept.
        static func tampered(_ jws: String) -> String {
            let parts = jws.split(separator: ".").map(String.init)
            let payload = String(decoding: base64URLDecoded(parts[1]) ?? Data(), as: UTF8.self)
                .replacingOccurrences(of: "com.example.app.pro", with: "com.example.app.gold")
            return [parts[0], base64URLEncoded(Data(payload.utf8)), parts[2]].joined(separator: ".")
        }

        /// Every transaction ID of the customer maps to the whole history, as Apple's endpoint does.
        var histories: [String: [String]] {
            Dictionary(uniqueKeysWithValues: (1...5).map { ("300000000000000\($0)", history) })
        }
    }

    /// Runs `body` with a fake API and a receipt server configured to ask it with `serverKey`.
    static func with(serverKey: SigningKey? = nil, _ body: (TestServer, FakeAppStoreServerAPI, World) async throws -> Void) async throws {
        let world = try World()
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try await FakeAppStoreServerAPI.withServer(keyId: keyId, issuerId: issuerId, bundleId: "com.example.app", publicKey: world.apiKey.publicKeyDER) { fake in
            fake.pageSize = 2
            for (transactionId, history) in world.histories { fake.setTransactionHistory(history, for: transactionId) }
            let reconcile = ReconcileConfiguration(signingKey: serverKey ?? world.apiKey, keyId: keyId, issuerId: issuerId,
                                                   environment: .sandbox, baseURL: fake.baseURL, options: options)
            let server = try await TestServer.start(databasePath: directory.databasePath, roots: [world.pki.trustedRoot], reconcile: reconcile, testing: .router)
            try await server.stopping { try await body(server, fake, world) }
        }
    }

    static func body(_ object: [String: Any]) throws -> Data {
        try JSONSerialization.data(withJSONObject: object)
    }

    @Test("Every verified transaction of every page is stored; the tampered one is reported and not stored; a second run stores nothing new")
    func reconcileStoresVerifiedHistory() async throws {
        try await Self.with { server, fake, world in
            let answer = try await server.request(.POST, "/transactions/3000000000000003/reconcile", headers: server.backendHeaders,
                                                  body: try Self.body(["appAccountToken": Self.customer.uppercased()]))
            #expect(answer.status == 200, "\(answer.text)")
            #expect(answer.json["received"] as? Int == 5)
            #expect(answer.json["stored"] as? Int == 4)
            #expect(answer.json["alreadyStored"] as? Int == 0)
            #expect(answer.json["customers"] as? [String] == [Self.customer])
            let unverified = answer.json["unverified"] as? [[String: Any]] ?? []
            #expect(unverified.count == 1)
            #expect(unverified.first?["transactionId"] as? String == world.tamperedId)
            #expect((unverified.first?["reason"] as? String)?.hasPrefix("invalidSignature") == true, "\(unverified)")
            #expect(try await server.store.count() == 4)

            // Three pages, each request with an accepted token, following Apple's revision.
            let requests = fake.requests
            #expect(requests.map { $0.queryValues("revision").first } == [nil, "page-2", "page-4"])
            #expect(requests.allSatisfy { $0.tokenRefusal == nil }, "\(requests.map(\.tokenRefusal))")
            #expect(requests.allSatisfy { $0.path == "/inApps/v2/history/3000000000000003" })

            // What was stored counts: the lifetime unlock and the renewed subscription are granted.
            let entitlements = try await server.entitlements(of: Self.customer)
            #expect(entitlements.status == 200)
            let granted = Set(entitlements.entitlements.compactMap { $0["productId"] as? String })
            #expect(granted == ["com.example.app.lifetime", "com.example.app.monthly"], "\(entitlements.text)")
            #expect(!entitlements.text.contains("com.example.app.gold"))

            let again = try await server.request(.POST, "/transactions/3000000000000001/reconcile", headers: server.backendHeaders,
                                                 body: try Self.body(["appAccountToken": Self.customer]))
            #expect(again.status == 200, "\(again.text)")
            #expect(again.json["stored"] as? Int == 0)
            #expect(again.json["alreadyStored"] as? Int == 4)
            #expect(try await server.store.count() == 4)
            #expect(server.metric(#"receipt_server_verifications_total{kind="reconciledTransaction",outcome="invalidSignature"}"#) == 2)
        }
    }

    @Test("Without a customer in the body, a transaction with no appAccountToken of an unlinked purchase is reported, not stored")
    func unlinkedTransaction() async throws {
        try await Self.with { server, _, _ in
            let answer = try await server.request(.POST, "/transactions/3000000000000004/reconcile", headers: server.backendHeaders)
            #expect(answer.status == 200, "\(answer.text)")
            #expect(answer.json["stored"] as? Int == 3)
            #expect(answer.json["unlinked"] as? [String] == ["3000000000000004"])
            #expect(try await server.store.count() == 3)
        }
    }

    @Test("A transaction Apple does not know is 404 unknownTransaction")
    func unknownTransaction() async throws {
        try await Self.with { server, _, _ in
            let answer = try await server.request(.POST, "/transactions/9999999999999999/reconcile", headers: server.backendHeaders)
            #expect(answer.status == 404, "\(answer.text)")
            #expect(answer.errorCode == "unknownTransaction")
            #expect(try await server.store.count() == 0)
        }
    }

    @Test("A key Apple refuses is 502 appStoreUnauthorized, nothing stored")
    func refusedKey() async throws {
        let otherKey = try SigningKey(pem: try TestPrivateKey(generating: .p256).pemEncoded)
        try await Self.with(serverKey: otherKey) { server, fake, _ in
            let answer = try await server.request(.POST, "/transactions/3000000000000001/reconcile", headers: server.backendHeaders)
            #expect(answer.status == 502, "\(answer.text)")
            #expect(answer.errorCode == "appStoreUnauthorized")
            #expect(answer.errorMessage?.contains("..") == false, "\(answer.text)")
            #expect(fake.requests.first?.tokenRefusal?.contains("signature") == true)
            #expect(try await server.store.count() == 0)
        }
    }

    @Test("A body naming the customer twice is 400 before Apple is asked")
    func duplicateCustomer() async throws {
        try await Self.with { server, fake, _ in
            let body = Data(#"{"appAccountToken": "\#(Self.customer)", "appAccountToken": "7e3fb20b-4cdb-47cc-936d-99d65f608138"}"#.utf8)
            let answer = try await server.request(.POST, "/transactions/3000000000000001/reconcile", headers: server.backendHeaders, body: body)
            #expect(answer.status == 400, "\(answer.text)")
            #expect(answer.errorCode == "invalidBody")
            #expect(fake.requests.isEmpty)
            #expect(try await server.store.count() == 0)
        }
    }

    @Test("A transaction ID that is not one is 400 before Apple is asked")
    func invalidTransactionId() async throws {
        try await Self.with { server, fake, _ in
            let answer = try await server.request(.POST, "/transactions/12%2F34/reconcile", headers: server.backendHeaders)
            #expect(answer.status == 400, "\(answer.text)")
            #expect(answer.errorCode == "invalidTransactionId")
            #expect(fake.requests.isEmpty)
        }
    }
}
