import AppStoreVerification
import Foundation

/// The one JSON object `verify-jws entitlements` writes.
struct EntitlementsOutput {
    enum Status: String {
        case verified, unverified, malformed
    }

    /// A line (or data nested in it) that did not count.
    struct RejectedLine {
        let line: Int
        let status: Status
        let code: String
        let message: String
    }

    let at: Date
    let entitlements: [Entitlement]
    let rejected: [RejectedLine]

    /// malformed, then unverified, then verified.
    var worstStatus: Status {
        if rejected.contains(where: { $0.status == .malformed }) { return .malformed }
        if rejected.contains(where: { $0.status == .unverified }) { return .unverified }
        return .verified
    }

    /// `{"at":…,"entitlements":[…],"rejected":[…]}`, keys sorted, dates in milliseconds since 1970,
    /// strings quoted by ``JSONText`` as in every other JSON the tool writes.
    func json() -> String {
        let rejectedLines = rejected.map { line in
            Self.object([
                ("error", Self.object([("code", JSONText.quoted(line.code)), ("message", JSONText.quoted(line.message))])),
                ("line", String(line.line)), ("status", JSONText.quoted(line.status.rawValue)),
            ])
        }
        return Self.object([
            ("at", String(Self.milliseconds(at))),
            ("entitlements", "[" + entitlements.map(Self.object).joined(separator: ",") + "]"),
            ("rejected", "[" + rejectedLines.joined(separator: ",") + "]"),
        ])
    }

    /// One entitlement as a JSON object, keys sorted.
    static func object(_ entitlement: Entitlement) -> String {
        func string(_ value: String?) -> String { value.map(JSONText.quoted) ?? "null" }
        func date(_ value: Date?) -> String { value.map { String(milliseconds($0)) } ?? "null" }
        return object([
            ("autoRenewProductId", string(entitlement.autoRenewProductId)),
            ("autoRenewStatus", entitlement.autoRenewStatus.map { String($0.rawValue) } ?? "null"),
            ("expiresDate", date(entitlement.expiresDate)),
            ("gracePeriodExpiresDate", date(entitlement.gracePeriodExpiresDate)),
            ("isInBillingRetryPeriod", entitlement.isInBillingRetryPeriod.map { $0 ? "true" : "false" } ?? "null"),
            ("originalTransactionId", string(entitlement.originalTransactionId)),
            ("ownershipType", string(entitlement.ownershipType?.rawValue)),
            ("productId", string(entitlement.productId)),
            ("productType", string(entitlement.productType.rawValue)),
            ("purchaseDate", date(entitlement.purchaseDate)),
            ("reason", string(entitlement.reason)),
            ("state", string(entitlement.state.rawValue)),
            ("subscriptionGroupIdentifier", string(entitlement.subscriptionGroupIdentifier)),
            ("transactionId", string(entitlement.transactionId)),
        ])
    }

    /// `{"key":value,...}` from members already written as JSON, in the order given.
    static func object(_ members: [(key: String, json: String)]) -> String {
        "{" + members.map { JSONText.quoted($0.key) + ":" + $0.json }.joined(separator: ",") + "}"
    }

    static func milliseconds(_ date: Date) -> Int64 {
        let value = (date.timeIntervalSince1970 * 1000).rounded(.down)
        guard value.isFinite else { return 0 }
        return Int64(max(-9.0e15, min(9.0e15, value)))
    }
}
