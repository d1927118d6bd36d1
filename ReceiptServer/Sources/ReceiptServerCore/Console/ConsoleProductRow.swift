import AppStoreVerification
import Foundation

/// One product on a customer's page: the entitlement engine's state and reason, whether it is
/// granted, and what else explains it (refunded, revoked from Family Sharing, family shared,
/// upgraded, auto-renew).
struct ConsoleProductRow: Sendable {
    let productId: String
    /// ``productId`` split after its dots, where the page may break the line.
    let productIdParts: [String]
    let productType: String
    let granted: Bool
    /// The state in words: `Subscribed`, `In grace period`, `In billing retry`, `Expired`,
    /// `Revoked`, `Purchased`.
    let stateLabel: String
    /// What else explains the state.
    let qualifiers: [String]
    let dates: [ConsoleLabeledDate]
    /// The engine's reason, naming the deciding transaction and the dates it compared.
    let reason: String

    /// The row of `entitlement`, given the latest verified version of each of the customer's
    /// transactions (by `transactionId`) and the subscription groups in which one was upgraded.
    init(_ entitlement: Entitlement, latest: [String: Transaction], upgradedGroups: Set<String>) {
        productId = entitlement.productId
        productIdParts = ConsoleProductName.parts(entitlement.productId)
        productType = entitlement.productType.rawValue
        granted = entitlement.isGranted
        stateLabel = Self.label(entitlement.state)
        var qualifiers: [String] = []
        if entitlement.state == .revoked {
            let deciding = latest[entitlement.transactionId]
            if deciding?.revocationType == .familyRevoke {
                qualifiers.append("Revoked from Family Sharing")
            } else if deciding?.revocationDate != nil {
                qualifiers.append("Refunded")
            } else {
                qualifiers.append("Revoked by a REVOKE notification")
            }
        }
        if entitlement.ownershipType == .familyShared { qualifiers.append("Family shared") }
        if let group = entitlement.subscriptionGroupIdentifier, upgradedGroups.contains(group) { qualifiers.append("Upgraded") }
        if entitlement.productType == .autoRenewableSubscription, entitlement.state != .revoked {
            if entitlement.autoRenewStatus == .on {
                qualifiers.append("Auto-renew on")
            } else if entitlement.autoRenewStatus == .off {
                qualifiers.append("Auto-renew off")
            }
            if let next = entitlement.autoRenewProductId, next != entitlement.productId { qualifiers.append("Renews into \(next)") }
        }
        self.qualifiers = qualifiers
        var dates: [ConsoleLabeledDate] = []
        if let purchased = entitlement.purchaseDate { dates.append(ConsoleLabeledDate(label: "purchased", date: ConsoleDate(purchased))) }
        if let expires = entitlement.expiresDate { dates.append(ConsoleLabeledDate(label: "expires", date: ConsoleDate(expires))) }
        if let grace = entitlement.gracePeriodExpiresDate { dates.append(ConsoleLabeledDate(label: "grace period ends", date: ConsoleDate(grace))) }
        if let revoked = entitlement.revocationDate { dates.append(ConsoleLabeledDate(label: "revoked", date: ConsoleDate(revoked))) }
        self.dates = dates
        reason = entitlement.reason
    }

    /// The state in words.
    static func label(_ state: Entitlement.State) -> String {
        switch state {
        case .purchased: "Purchased"
        case .subscribed: "Subscribed"
        case .inGracePeriod: "In grace period"
        case .inBillingRetryPeriod: "In billing retry"
        case .expired: "Expired"
        case .revoked: "Revoked"
        }
    }
}
