import AsyncHTTPClient
import Foundation
import ReceiptServerCore
import Testing

/// The app's side of the flow over real HTTP, with the signed vectors of TestVectors/jws
/// (a monthly subscription signed 2026-03-01T12:00:00Z, expiring 2026-04-01T11:59:00Z).
@Suite("Transactions and notifications over HTTP", .timeLimit(.minutes(2)))
struct TransactionFlowTests {
    static let customer = "7e3fb20b-4cdb-47cc-936d-99d65f608138"
    static let now = TestData.vectorsSignedDate.addingTimeInterval(86_400)

    @Test("A purchase is stored and answered with the customer's entitlement; the re-send stores nothing new", arguments: StoreKind.allCases)
    func purchaseThenResend(store: StoreKind) async throws {
        let directory = try await TestDatabase.make(store)
        defer { directory.remove() }
        let server = try await TestServer.start(databasePath: directory.databasePath, now: Self.now, testing: .router)
        do {
            let jws = try TestData.jws("jws/transaction-valid.jws")
            let first = try await server.postTransaction(jws, appAccountToken: Self.customer)
            #expect(first.status == 200, "\(first.text)")
            #expect(first.json["stored"] as? Bool == true)
            #expect(first.json["appAccountToken"] as? String == Self.customer)
            let granted = first.entitlements
            #expect(granted.count == 1)
            #expect(granted.first?["productId"] as? String == "com.example.app.premium.monthly")
            #expect(granted.first?["state"] as? String == "subscribed")
            #expect(granted.first?["transactionId"] as? String == "2000000123456789")
            #expect(granted.first?["expiresDate"] as? Int == 1_775_044_740_000)

            // The app re-sends the same jwsRepresentation (it may have missed the answer).
            let again = try await server.postTransaction(jws, appAccountToken: Self.customer.uppercased())
            #expect(again.status == 200, "\(again.text)")
            #expect(again.json["stored"] as? Bool == false)
            #expect(again.entitlements.count == 1)
            #expect(try await server.store.count() == 1)

            // Once the subscription expired, nothing is granted; its status says expired.
            let later = try await server.entitlements(of: Self.customer, at: Date(timeIntervalSince1970: 1_775_044_740.001))
            #expect(later.status == 200)
            #expect(later.entitlements.isEmpty)
            #expect(later.statuses.first?["state"] as? String == "expired")
        } catch {
            try await server.stop()
            throw error
        }
        try await server.stop()
    }

    @Test("A transaction without appAccountToken and without one in the body is refused (422) and not stored", arguments: StoreKind.allCases)
    func missingCustomer(store: StoreKind) async throws {
        let directory = try await TestDatabase.make(store)
        defer { directory.remove() }
        let server = try await TestServer.start(databasePath: directory.databasePath, now: Self.now, testing: .router)
        do {
            let answer = try await server.postTransaction(try TestData.jws("jws/transaction-valid.jws"))
            #expect(answer.status == 422)
            #expect(answer.errorCode == "missingAppAccountToken")
            #expect(answer.errorMessage?.contains("appAccountToken") == true)
            #expect(try await server.store.count() == 0)
        } catch {
            try await server.stop()
            throw error
        }
        try await server.stop()
    }

    @Test("A notification that arrives before the purchase counts for the customer once the app sends the purchase", arguments: StoreKind.allCases)
    func notificationBeforePurchase(store: StoreKind) async throws {
        let directory = try await TestDatabase.make(store)
        defer { directory.remove() }
        let server = try await TestServer.start(databasePath: directory.databasePath, now: Self.now, testing: .router)
        do {
            // SUBSCRIBED for purchase 2000000100000001, no appAccountToken inside: stored, no customer yet.
            let notification = try TestData.jws("jws/notification-valid.jws")
            let stored = try await server.postNotification(notification)
            #expect(stored.status == 200, "\(stored.text)")
            #expect(stored.json["stored"] as? Bool == true)
            #expect(stored.json["notificationType"] as? String == "SUBSCRIBED")
            #expect(stored.json["appAccountToken"] == nil || stored.json["appAccountToken"] is NSNull)
            #expect(try await server.entitlements(of: Self.customer).statuses.isEmpty)

            // Apple retries the same notification: 200, nothing new.
            let retried = try await server.postNotification(notification)
            #expect(retried.status == 200)
            #expect(retried.json["stored"] as? Bool == false)

            // The app sends the purchase: the notification's renewal info now counts for the customer.
            let purchase = try await server.postTransaction(try TestData.jws("jws/transaction-valid.jws"), appAccountToken: Self.customer)
            #expect(purchase.status == 200, "\(purchase.text)")
            #expect(purchase.entitlements.count == 1)
            #expect(purchase.entitlements.first?["autoRenewStatus"] as? Int == 1, "the renewal info came only with the notification")
            #expect(try await server.store.count() == 2)

            // The same purchase claimed by another customer is refused, nothing stored.
            let other = try await server.postTransaction(try TestData.jws("jws/transaction-valid.jws"), appAccountToken: UUID().uuidString)
            #expect(other.status == 409)
            #expect(other.errorCode == "customerConflict")
            #expect(try await server.store.count() == 2)
        } catch {
            try await server.stop()
            throw error
        }
        try await server.stop()
    }
}
