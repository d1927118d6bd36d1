import AsyncHTTPClient
import Foundation
import ReceiptServerCore
import Testing

/// The product's seed flow over real HTTP, with the signed histories of TestVectors/histories
/// (their own test PKI, histories/pki/root.der; no appAccountToken inside, so the app names the
/// customer in the body).
@Suite("Seed flow: purchase, re-send, refund before purchase, grace period", .timeLimit(.minutes(2)))
struct SeedFlowTests {
    static let customer = "a1b2c3d4-e5f6-4711-8899-aabbccddeeff"

    /// The granted and all statuses at an instant, as (productId, transactionId, state).
    static func states(_ answer: TestServer.Answer) -> [String] {
        answer.statuses.map { "\($0["transactionId"] as? String ?? "?") \($0["state"] as? String ?? "?")" }
    }

    @Test("A REFUND notification arriving before the purchase: stored, then counted once the app sends the purchase", arguments: StoreKind.allCases)
    func refundBeforePurchase(store: StoreKind) async throws {
        let directory = try await TestDatabase.make(store)
        defer { directory.remove() }
        // out-of-order-duplicates: 1 REFUND body for 930002 (purchase 930001, revoked 2026-02-10),
        // 2 DID_RENEW (930002), 3 purchase 930001, 5 renewal 930002.
        let lines = try TestData.historyLines("out-of-order-duplicates")
        let now = ISO8601DateFormatter().date(from: "2026-02-15T00:00:00Z") ?? Date()
        let server = try await TestServer.start(databasePath: directory.databasePath, root: TestData.historiesRoot, now: now, testing: .router)
        do {
            let refund = try await server.postNotificationBody(lines[0])
            #expect(refund.status == 200, "\(refund.text)")
            #expect(refund.json["notificationType"] as? String == "REFUND")
            #expect(refund.json["stored"] as? Bool == true)
            #expect(try await server.entitlements(of: Self.customer).statuses.isEmpty, "no purchase is linked to the customer yet")

            // The app sends the purchase; the refund already stored counts from now on.
            let purchase = try await server.postTransaction(lines[2], appAccountToken: Self.customer)
            #expect(purchase.status == 200, "\(purchase.text)")
            #expect(purchase.entitlements.isEmpty, "refunded at 2026-02-10: nothing granted on 2026-02-15")
            #expect(Self.states(purchase) == ["930002 revoked"])

            // Before the refund the renewal 930002 was subscribed; before the renewal, 930001.
            #expect(Self.states(try await server.entitlements(of: Self.customer, atISO8601: "2026-02-05T00:00:00Z")) == ["930002 subscribed"])
            #expect(Self.states(try await server.entitlements(of: Self.customer, atISO8601: "2026-01-20T00:00:00Z")) == ["930001 subscribed"])

            // The app re-sends the purchase, Apple retries the refund: nothing new, same answer.
            let resend = try await server.postTransaction(lines[2], appAccountToken: Self.customer)
            #expect(resend.status == 200)
            #expect(resend.json["stored"] as? Bool == false)
            #expect(Self.states(resend) == ["930002 revoked"])
            let retry = try await server.postNotificationBody(lines[0])
            #expect(retry.status == 200)
            #expect(retry.json["stored"] as? Bool == false)
            #expect(retry.json["appAccountToken"] as? String == Self.customer)
            #expect(try await server.store.count() == 2)
        } catch {
            try await server.stop()
            throw error
        }
        try await server.stop()
    }

    @Test("Grace period: DID_FAIL_TO_RENEW/GRACE_PERIOD keeps access until gracePeriodExpiresDate, then billing retry without access", arguments: StoreKind.allCases)
    func gracePeriod(store: StoreKind) async throws {
        let directory = try await TestDatabase.make(store)
        defer { directory.remove() }
        // grace-period: 1 purchase 600001 (expires around 2026-02-01), 2 DID_FAIL_TO_RENEW / GRACE_PERIOD body.
        let lines = try TestData.historyLines("grace-period")
        let now = ISO8601DateFormatter().date(from: "2026-02-05T00:00:00Z") ?? Date()
        let server = try await TestServer.start(databasePath: directory.databasePath, root: TestData.historiesRoot, now: now, testing: .router)
        do {
            let purchase = try await server.postTransaction(lines[0], appAccountToken: Self.customer)
            #expect(purchase.status == 200, "\(purchase.text)")
            #expect(purchase.entitlements.isEmpty, "expired, and no renewal info says billing retry yet")
            #expect(Self.states(purchase) == ["600001 expired"])

            let failed = try await server.postNotificationBody(lines[1])
            #expect(failed.status == 200, "\(failed.text)")
            #expect(failed.json["notificationType"] as? String == "DID_FAIL_TO_RENEW")
            #expect(failed.json["appAccountToken"] as? String == Self.customer)

            let inGrace = try await server.entitlements(of: Self.customer)
            #expect(inGrace.entitlements.count == 1)
            #expect(inGrace.entitlements.first?["state"] as? String == "inGracePeriod")
            #expect(inGrace.entitlements.first?["isInBillingRetryPeriod"] as? Bool == true)
            #expect(inGrace.entitlements.first?["gracePeriodExpiresDate"] as? Int != nil)

            let afterGrace = try await server.entitlements(of: Self.customer, atISO8601: "2026-02-20T00:00:00Z")
            #expect(afterGrace.entitlements.isEmpty)
            #expect(Self.states(afterGrace) == ["600001 inBillingRetryPeriod"])
            #expect(Self.states(try await server.entitlements(of: Self.customer, atISO8601: "2026-01-20T00:00:00Z")) == ["600001 subscribed"])
        } catch {
            try await server.stop()
            throw error
        }
        try await server.stop()
    }
}
