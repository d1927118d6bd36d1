import AppStoreVerification
import Foundation
@testable import ReceiptServerCore
import Testing

/// How the customer's page names each entitlement state and what explains it, and how the timeline
/// names each kind of transaction.
@Suite("Console: states, reasons and events in words")
struct ConsoleProductRowTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func entitlement(_ state: Entitlement.State, productType: ProductType = .autoRenewableSubscription, transactionId: String = "1",
                            ownership: InAppOwnershipType? = .purchased, autoRenew: AutoRenewStatus? = nil, next: String? = nil,
                            grace: Date? = nil, revoked: Date? = nil) -> Entitlement {
        Entitlement(productId: "com.example.pro", productType: productType, transactionId: transactionId, originalTransactionId: "1",
                    subscriptionGroupIdentifier: productType == .autoRenewableSubscription ? "g" : nil, purchaseDate: now - 86_400,
                    expiresDate: productType == .autoRenewableSubscription ? now + 86_400 : nil, revocationDate: revoked, state: state,
                    ownershipType: ownership, autoRenewStatus: autoRenew, autoRenewProductId: next, isInBillingRetryPeriod: nil,
                    gracePeriodExpiresDate: grace, reason: "the engine's reason")
    }

    @Test("Every state has its words; granted states are granted", arguments: Entitlement.State.allCases)
    func stateLabels(state: Entitlement.State) {
        let row = ConsoleProductRow(Self.entitlement(state), latest: [:], upgradedGroups: [])
        let expected: [Entitlement.State: String] = [
            .purchased: "Purchased", .subscribed: "Subscribed", .inGracePeriod: "In grace period",
            .inBillingRetryPeriod: "In billing retry", .expired: "Expired", .revoked: "Revoked",
        ]
        #expect(row.stateLabel == expected[state])
        #expect(row.granted == state.isGranted)
        #expect(row.reason == "the engine's reason")
    }

    @Test("Why revoked: refunded, revoked from Family Sharing, or by a REVOKE notification")
    func revocations() {
        let refunded = Transaction(transactionId: "1", productId: "com.example.pro", type: .nonConsumable, revocationReason: .refundedDueToIssue,
                                   revocationDate: Self.now, revocationType: .refundProrated)
        let familyRevoked = Transaction(transactionId: "1", productId: "com.example.pro", type: .nonConsumable, inAppOwnershipType: .familyShared,
                                        revocationDate: Self.now, revocationType: .familyRevoke)
        let entitlement = Self.entitlement(.revoked, productType: .nonConsumable, revoked: Self.now)
        #expect(ConsoleProductRow(entitlement, latest: ["1": refunded], upgradedGroups: []).qualifiers == ["Refunded"])
        #expect(ConsoleProductRow(entitlement, latest: ["1": familyRevoked], upgradedGroups: []).qualifiers == ["Revoked from Family Sharing"])
        #expect(ConsoleProductRow(entitlement, latest: [:], upgradedGroups: []).qualifiers == ["Revoked by a REVOKE notification"])
        #expect(ConsoleProductRow(entitlement, latest: [:], upgradedGroups: []).dates.map(\.label) == ["purchased", "revoked"])
    }

    @Test("Family shared, upgraded, auto-renew, the product it renews into, the grace period's end")
    func qualifiers() {
        let shared = ConsoleProductRow(Self.entitlement(.purchased, productType: .nonConsumable, ownership: .familyShared), latest: [:], upgradedGroups: [])
        #expect(shared.qualifiers == ["Family shared"])
        let upgraded = ConsoleProductRow(Self.entitlement(.subscribed, autoRenew: .on), latest: [:], upgradedGroups: ["g"])
        #expect(upgraded.qualifiers == ["Upgraded", "Auto-renew on"])
        let downgrading = ConsoleProductRow(Self.entitlement(.subscribed, autoRenew: .on, next: "com.example.basic"), latest: [:], upgradedGroups: [])
        #expect(downgrading.qualifiers == ["Auto-renew on", "Renews into com.example.basic"])
        let grace = ConsoleProductRow(Self.entitlement(.inGracePeriod, autoRenew: .off, grace: Self.now + 3600), latest: [:], upgradedGroups: [])
        #expect(grace.qualifiers == ["Auto-renew off"])
        #expect(grace.dates.map(\.label) == ["purchased", "expires", "grace period ends"])
    }

    @Test("Timeline events: purchase or renewal as Apple labels them (transactionReason, the notification type), upgrade, refund, revocation from Family Sharing")
    func events() {
        let purchase = Transaction(transactionId: "1", productId: "p", subscriptionGroupIdentifier: "g", type: .autoRenewableSubscription,
                                   transactionReason: .purchase)
        #expect(ConsoleDecodedItem.describe(purchase).event == "Purchase")
        let renewal = Transaction(transactionId: "2", productId: "p", originalTransactionId: "1", subscriptionGroupIdentifier: "g",
                                  type: .autoRenewableSubscription, transactionReason: .renewal)
        #expect(ConsoleDecodedItem.describe(renewal).event == "Renewal")
        // A first purchase whose original transaction ID is another's (TestVectors/jws/transaction-valid.jws
        // is one: PURCHASE, 2000000123456789 under 2000000100000001) is a purchase, not a renewal.
        let resubscription = Transaction(transactionId: "7", productId: "p", originalTransactionId: "1", subscriptionGroupIdentifier: "g",
                                         type: .autoRenewableSubscription, transactionReason: .purchase)
        #expect(ConsoleDecodedItem.describe(resubscription).event == "Purchase")
        #expect(ConsoleDecodedItem.describe(resubscription, notificationType: .subscribed, subtype: .initialBuy).event == "Purchase")
        // The notification's type decides when the transaction carries no reason; without either, it says neither.
        let unexplained = Transaction(transactionId: "8", productId: "p", originalTransactionId: "1", subscriptionGroupIdentifier: "g",
                                      type: .autoRenewableSubscription, transactionReason: nil)
        #expect(ConsoleDecodedItem.describe(unexplained, notificationType: .didRenew, subtype: nil).event == "Renewal")
        #expect(ConsoleDecodedItem.describe(unexplained, notificationType: .subscribed, subtype: .resubscribe).event == "Purchase")
        #expect(ConsoleDecodedItem.describe(unexplained).event == "Transaction")
        let consumable = Transaction(transactionId: "9", productId: "c", originalTransactionId: "1", type: .consumable)
        #expect(ConsoleDecodedItem.describe(consumable).event == "Purchase")
        let upgraded = Transaction(transactionId: "3", productId: "p", subscriptionGroupIdentifier: "g", type: .autoRenewableSubscription, isUpgraded: true)
        #expect(ConsoleDecodedItem.describe(upgraded).event == "Upgraded")
        let refund = Transaction(transactionId: "4", productId: "p", type: .nonConsumable, revocationReason: .refundedForOtherReason,
                                 revocationDate: Self.now, revocationType: .refundFull)
        #expect(ConsoleDecodedItem.describe(refund).event == "Refund")
        #expect(ConsoleDecodedItem.describe(refund).detail == "Non-Consumable, REFUND_FULL, reason 0 (other)")
        let familyRevoke = Transaction(transactionId: "5", productId: "p", type: .nonConsumable, inAppOwnershipType: .familyShared,
                                       revocationDate: Self.now, revocationType: .familyRevoke)
        #expect(ConsoleDecodedItem.describe(familyRevoke).event == "Revoked from Family Sharing")
        #expect(ConsoleDecodedItem.describe(familyRevoke).detail == "Non-Consumable, family shared")
        let info = RenewalInfo(originalTransactionId: "1", productId: "p", autoRenewProductId: "q", autoRenewStatus: .on, isInBillingRetryPeriod: true)
        #expect(ConsoleDecodedItem.describe(info) == "auto-renew on, renews into q, billing retry")
    }
}
