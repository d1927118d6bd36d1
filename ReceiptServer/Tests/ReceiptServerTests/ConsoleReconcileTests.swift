import AppStoreServerAPI
import AppStoreServerAPITesting
import AppStoreVerification
import AppStoreVerificationTesting
import Foundation
import ReceiptServerCore
import Testing

/// "Reconcile with Apple" on the customer's page, against the fake App Store Server API of the
/// reconcile route's own tests.
@Suite("Console: reconcile with Apple", .timeLimit(.minutes(2)), .serialized)
struct ConsoleReconcileTests {
    @Test("The button posts with the session's CSRF token; the page then shows what Apple's history added, once")
    func reconcileAddsMissingPurchase() async throws {
        let fixture = try ConsoleFixture()
        let apiKey = try SigningKey(pem: try TestPrivateKey(generating: .p256).pemEncoded)
        let missing = Transaction(transactionId: "5100000000000008", productId: "com.example.app.stickers", purchaseDate: fixture.now - 2 * ConsoleFixture.day,
                                  type: .nonConsumable, appAccountToken: ConsoleFixture.customer, signedDate: fixture.now - 2 * ConsoleFixture.day)
        let history = [fixture.purchaseJWS, try fixture.minter.transaction(missing)]
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try await FakeAppStoreServerAPI.withServer(keyId: ReconcileTests.keyId, issuerId: ReconcileTests.issuerId, bundleId: "com.example.app",
                                                   publicKey: apiKey.publicKeyDER) { fake in
            fake.pageSize = 2
            for transactionId in ConsoleFixture.transactionIds + ["5100000000000008"] { fake.setTransactionHistory(history, for: transactionId) }
            let reconcile = ReconcileConfiguration(signingKey: apiKey, keyId: ReconcileTests.keyId, issuerId: ReconcileTests.issuerId,
                                                   environment: .sandbox, baseURL: fake.baseURL, options: ReconcileTests.options)
            let server = try await fixture.startServer(databasePath: directory.databasePath, reconcile: reconcile)
            try await server.stopping { try await ConsoleBrowser.using(port: server.port) { browser in
                try await fixture.seed(server)
                try await browser.signIn(token: ConsoleFixture.token)
                let page = try await browser.get(ConsoleCustomerPageTests.customerPath)
                #expect(page.body.contains("Reconcile with Apple"))
                let action = try #require(page.body.range(of: #"/console/customers/[0-9a-f-]+/transactions/\d+/reconcile"#, options: .regularExpression))
                let path = String(page.body[action])
                let csrf = try #require(page.hidden("csrf"))

                // Without the token nothing is asked of Apple.
                #expect(try await browser.post(path, form: [("csrf", "forged")]).status == 403)
                #expect(fake.requests.isEmpty)
                let count = try await server.store.count()

                let posted = try await browser.post(path, form: [("csrf", csrf)])
                #expect(posted.status == 303)
                #expect(posted.location == ConsoleCustomerPageTests.customerPath)
                #expect(try await server.store.count() == count + 1)
                let after = try await browser.get(ConsoleCustomerPageTests.customerPath)
                #expect(after.body.contains("Reconciled with Apple"))
                #expect(after.body.contains("Apple returned 2 transactions"))
                #expect(after.body.contains("1 new, 1 already stored."))
                let added = try #require(ConsoleCustomerPageTests.section(after.body, id: "reconcile-added", tag: "ul"))
                #expect(added.contains("com.example.app.stickers"))
                #expect(added.contains("5100000000000008"))
                // Shown once.
                #expect(!(try await browser.get(ConsoleCustomerPageTests.customerPath).body.contains("Reconciled with Apple")))
                // A transaction of another customer cannot be reconciled through this page.
                let foreign = path.replacingOccurrences(of: #"/transactions/\d+/"#, with: "/transactions/9999999999999999/", options: .regularExpression)
                #expect(try await browser.post(foreign, form: [("csrf", csrf)]).status == 400)
            } }
        }
    }

    @Test("A failed reconciliation (Apple refuses the key) is said on the page; nothing is stored")
    func reconcileFailure() async throws {
        let fixture = try ConsoleFixture()
        let apiKey = try SigningKey(pem: try TestPrivateKey(generating: .p256).pemEncoded)
        let otherKey = try SigningKey(pem: try TestPrivateKey(generating: .p256).pemEncoded)
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try await FakeAppStoreServerAPI.withServer(keyId: ReconcileTests.keyId, issuerId: ReconcileTests.issuerId, bundleId: "com.example.app",
                                                   publicKey: apiKey.publicKeyDER) { fake in
            fake.pageSize = 2
            for transactionId in ConsoleFixture.transactionIds { fake.setTransactionHistory([fixture.purchaseJWS], for: transactionId) }
            let reconcile = ReconcileConfiguration(signingKey: otherKey, keyId: ReconcileTests.keyId, issuerId: ReconcileTests.issuerId,
                                                   environment: .sandbox, baseURL: fake.baseURL, options: ReconcileTests.options)
            let server = try await fixture.startServer(databasePath: directory.databasePath, reconcile: reconcile)
            try await server.stopping { try await ConsoleBrowser.using(port: server.port) { browser in
                try await fixture.seed(server)
                try await browser.signIn(token: ConsoleFixture.token)
                let page = try await browser.get(ConsoleCustomerPageTests.customerPath)
                let action = try #require(page.body.range(of: #"/console/customers/[0-9a-f-]+/transactions/\d+/reconcile"#, options: .regularExpression))
                let count = try await server.store.count()
                let posted = try await browser.post(String(page.body[action]), form: [("csrf", page.hidden("csrf") ?? "")])
                #expect(posted.status == 303)
                let after = try await browser.get(ConsoleCustomerPageTests.customerPath)
                #expect(after.body.contains("Reconciled with Apple"))
                #expect(after.body.contains("appStoreUnauthorized"))
                #expect(try await server.store.count() == count)
            } }
        }
    }
}
