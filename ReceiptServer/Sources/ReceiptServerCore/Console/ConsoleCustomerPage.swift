import AppStoreVerification
import Foundation

/// A customer's page content (template `customer`).
struct ConsoleCustomerPage: Sendable {
    /// The reconcile form.
    struct Reconcile: Sendable {
        let action: String
        let transactionId: String
    }

    let customer: String
    /// The instant the entitlements hold at (the server's now).
    let now: ConsoleDate
    let itemCount: Int
    let flash: ConsoleFlash?
    let hasProducts: Bool
    /// Granted first, then the others, each by product ID.
    let products: [ConsoleProductRow]
    let hasRejected: Bool
    let rejected: [RejectionJSON]
    /// `nil` without API credentials or without a transaction to ask Apple about.
    let reconcile: Reconcile?
    /// Newest first.
    let timeline: [ConsoleTimelineRow]

    /// The page of `customer` at `now`, from the engine's statuses, the stored rejections, and the
    /// customer's stored items decoded and verified again.
    init(customer: String, now: Date, statuses: [Entitlement], rejected: [RejectionJSON], items: [ConsoleDecodedItem],
         flash: ConsoleFlash?, canReconcile: Bool) {
        self.customer = customer
        self.now = ConsoleDate(now)
        itemCount = items.count
        self.flash = flash
        var latest: [String: Transaction] = [:]
        var upgradedGroups = Set<String>()
        for transaction in items.flatMap(\.verifiedTransactions) {
            if transaction.isUpgraded == true, let group = transaction.subscriptionGroupIdentifier { upgradedGroups.insert(group) }
            if let known = latest[transaction.transactionId], (known.signedDate ?? .distantPast) > (transaction.signedDate ?? .distantPast) { continue }
            latest[transaction.transactionId] = transaction
        }
        products = statuses
            .map { ConsoleProductRow($0, latest: latest, upgradedGroups: upgradedGroups) }
            .sorted { ($0.granted ? 0 : 1, $0.productId) < ($1.granted ? 0 : 1, $1.productId) }
        hasProducts = !products.isEmpty
        self.rejected = rejected
        hasRejected = !rejected.isEmpty
        let newestFirst = items.sorted { left, right in
            let leftDate = left.signed?.milliseconds ?? Int64.min, rightDate = right.signed?.milliseconds ?? Int64.min
            return leftDate == rightDate ? left.row.id > right.row.id : leftDate > rightDate
        }
        timeline = newestFirst.map { ConsoleTimelineRow($0, customer: customer) }
        let purchase = newestFirst.first { !$0.originalTransactionId.isEmpty && Self.isTransactionId($0.originalTransactionId) }?.originalTransactionId
        reconcile = canReconcile
            ? purchase.map { Reconcile(action: ConsolePaths.reconcile(customer, transactionId: $0), transactionId: $0) }
            : nil
    }

    /// Whether `text` is a transaction ID the reconcile route takes (letters and digits, at most 64).
    static func isTransactionId(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 64 && text.allSatisfy { $0.isASCII && ($0.isNumber || $0.isLetter) }
    }
}
