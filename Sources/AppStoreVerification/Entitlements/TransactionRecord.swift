import Foundation

/// The fields of a verified ``Transaction`` that decide entitlements, as plain data (dates in
/// milliseconds since 1970) so that a ``CustomerHistory`` encodes and restores exactly.
struct TransactionRecord: Codable, Hashable, Sendable {
    var transactionId: String
    var originalTransactionId: String
    var productId: String
    var productType: String
    var subscriptionGroupIdentifier: String?
    var purchaseDate: Int64?
    var expiresDate: Int64?
    var revocationDate: Int64?
    var revocationType: String?
    var revocationReason: Int32?
    var isUpgraded: Bool
    var ownershipType: String?
    /// `nil` only for data verified at an explicit effective date without a signedDate.
    var signedDate: Int64?

    /// The record of a transaction, or why the engine cannot use it.
    static func make(_ transaction: Transaction) -> Result<TransactionRecord, IngestNote> {
        guard let transactionId = transaction.storedTransactionId, !transactionId.isEmpty else {
            return .failure(IngestNote("a transaction without transactionId: it cannot be told apart from others, so it is ignored"))
        }
        guard let productId = transaction.storedProductId, !productId.isEmpty else {
            return .failure(IngestNote("transaction \(transactionId) has no productId: ignored"))
        }
        guard let type = transaction.storedType else {
            return .failure(IngestNote("transaction \(transactionId) (\(productId)) has no type: ignored"))
        }
        guard EntitlementRules.grantableTypes.contains(type) else {
            let why = type == .consumable
                ? "a consumable is never an entitlement"
                : "product type \"\(type.rawValue)\" is not one the engine knows how to grant"
            return .failure(IngestNote("transaction \(transactionId) (\(productId)): \(why); ignored"))
        }
        if type == .autoRenewableSubscription, (transaction.subscriptionGroupIdentifier ?? "").isEmpty {
            return .failure(IngestNote("auto-renewable transaction \(transactionId) (\(productId)) has no subscriptionGroupIdentifier: ignored"))
        }
        return .success(TransactionRecord(
            transactionId: transactionId,
            originalTransactionId: transaction.storedOriginalTransactionId ?? transactionId,
            productId: productId,
            productType: type.rawValue,
            subscriptionGroupIdentifier: transaction.subscriptionGroupIdentifier,
            purchaseDate: transaction.storedPurchaseDate.map(Milliseconds.of),
            expiresDate: transaction.expiresDate.map(Milliseconds.of),
            revocationDate: transaction.revocationDate.map(Milliseconds.of),
            revocationType: transaction.revocationType?.rawValue,
            revocationReason: transaction.revocationReason?.rawValue,
            isUpgraded: transaction.isUpgraded ?? false,
            ownershipType: transaction.inAppOwnershipType?.rawValue,
            signedDate: transaction.signedDate.map(Milliseconds.of)))
    }
}

/// The fields of verified ``RenewalInfo`` that decide a subscription's state.
struct RenewalRecord: Codable, Hashable, Sendable {
    var originalTransactionId: String
    var productId: String?
    var autoRenewProductId: String?
    var autoRenewStatus: Int32?
    var isInBillingRetryPeriod: Bool
    var gracePeriodExpiresDate: Int64?
    var expirationIntent: Int32?
    var signedDate: Int64?

    /// The record of renewal info, or why the engine cannot use it.
    static func make(_ info: RenewalInfo) -> Result<RenewalRecord, IngestNote> {
        guard let originalTransactionId = info.originalTransactionId, !originalTransactionId.isEmpty else {
            return .failure(IngestNote("renewal info without originalTransactionId: it belongs to no subscription, so it is ignored"))
        }
        return .success(RenewalRecord(
            originalTransactionId: originalTransactionId,
            productId: info.productId,
            autoRenewProductId: info.autoRenewProductId,
            autoRenewStatus: info.autoRenewStatus?.rawValue,
            isInBillingRetryPeriod: info.isInBillingRetryPeriod ?? false,
            gracePeriodExpiresDate: info.gracePeriodExpiresDate.map(Milliseconds.of),
            expirationIntent: info.expirationIntent?.rawValue,
            signedDate: info.signedDate.map(Milliseconds.of)))
    }
}

/// A record that can be ordered by its whole content, for ties between versions.
protocol CanonicallyOrdered: Equatable {
    /// Every field, in a fixed order, as text: equal exactly when the records are equal.
    var canonicalKey: String { get }
}

extension CanonicallyOrdered {
    static func field(_ value: (some CustomStringConvertible)?) -> String {
        value.map { "+\($0.description)" } ?? "-"
    }
}

extension TransactionRecord: CanonicallyOrdered {
    var canonicalKey: String {
        [transactionId, originalTransactionId, productId, productType, Self.field(subscriptionGroupIdentifier),
         Self.field(purchaseDate), Self.field(expiresDate), Self.field(revocationDate), Self.field(revocationType),
         Self.field(revocationReason), String(isUpgraded), Self.field(ownershipType), Self.field(signedDate)]
            .joined(separator: "\u{1F}")
    }
}

extension RenewalRecord: CanonicallyOrdered {
    var canonicalKey: String {
        [originalTransactionId, Self.field(productId), Self.field(autoRenewProductId), Self.field(autoRenewStatus),
         String(isInBillingRetryPeriod), Self.field(gracePeriodExpiresDate), Self.field(expirationIntent), Self.field(signedDate)]
            .joined(separator: "\u{1F}")
    }
}

/// Which of two versions of the same signed item wins: the later `signedDate`; on a tie (or when
/// neither has one), the one whose content sorts last, so that the choice depends only on the two
/// values, never on which arrived first.
enum LatestVersion {
    static func prefers<Record: CanonicallyOrdered>(_ candidate: Record, over current: Record, candidateDate: Int64?, currentDate: Int64?) -> Bool {
        if candidate == current { return false }
        let lhs = candidateDate ?? Int64.min, rhs = currentDate ?? Int64.min
        if lhs != rhs { return lhs > rhs }
        return candidate.canonicalKey > current.canonicalKey
    }
}
