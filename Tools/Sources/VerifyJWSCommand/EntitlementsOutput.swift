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

    /// `{"at":…,"entitlements":[…],"rejected":[…]}`, keys sorted, dates in milliseconds since 1970.
    func json() -> String {
        let object: [String: Any] = [
            "at": Self.milliseconds(at),
            "entitlements": entitlements.map(Self.object),
            "rejected": rejected.map { line -> [String: Any] in
                ["line": line.line, "status": line.status.rawValue, "error": ["code": line.code, "message": line.message]]
            },
        ]
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else {
            return "{}"
        }
        return String(decoding: data, as: UTF8.self)
    }

    static func object(_ entitlement: Entitlement) -> [String: Any] {
        [
            "productId": entitlement.productId,
            "productType": entitlement.productType.rawValue,
            "transactionId": entitlement.transactionId,
            "originalTransactionId": entitlement.originalTransactionId,
            "subscriptionGroupIdentifier": orNull(entitlement.subscriptionGroupIdentifier),
            "purchaseDate": orNull(entitlement.purchaseDate.map(milliseconds)),
            "expiresDate": orNull(entitlement.expiresDate.map(milliseconds)),
            "state": entitlement.state.rawValue,
            "ownershipType": orNull(entitlement.ownershipType?.rawValue),
            "autoRenewStatus": orNull(entitlement.autoRenewStatus.map { Int($0.rawValue) }),
            "autoRenewProductId": orNull(entitlement.autoRenewProductId),
            "isInBillingRetryPeriod": orNull(entitlement.isInBillingRetryPeriod),
            "gracePeriodExpiresDate": orNull(entitlement.gracePeriodExpiresDate.map(milliseconds)),
            "reason": entitlement.reason,
        ]
    }

    /// The value, or JSON null.
    static func orNull(_ value: Any?) -> Any { value ?? NSNull() }

    static func milliseconds(_ date: Date) -> Int64 {
        let value = (date.timeIntervalSince1970 * 1000).rounded(.down)
        guard value.isFinite else { return 0 }
        return Int64(max(-9.0e15, min(9.0e15, value)))
    }
}
