/// What a reconciliation did, shown once on the customer's page after the form's redirect.
struct ConsoleFlash: Sendable {
    /// The customer whose page shows it.
    let customer: String
    /// Why the reconciliation failed, when it did.
    let failure: String?
    /// `Apple returned 5 transactions …`.
    let summary: String?
    /// The items stored for this customer by it.
    let added: [ConsoleAddedItem]
    let hasAdded: Bool
    /// True when it succeeded and added nothing for this customer.
    let noneAdded: Bool
    /// Transactions not stored (unverified, unlinked, another customer's), and other customers
    /// it stored for.
    let notes: [String]
    let hasNotes: Bool

    /// A failed reconciliation.
    init(customer: String, failure: String) {
        self.customer = customer
        self.failure = failure
        summary = nil
        added = []
        hasAdded = false
        noneAdded = false
        notes = []
        hasNotes = false
    }

    /// A reconciliation that answered `answer` and stored `added` for `customer`.
    init(customer: String, answer: ConsoleReconcileAnswer, added: [ConsoleAddedItem]) {
        self.customer = customer
        failure = nil
        summary = "Apple returned \(answer.received) transactions (asked through transaction \(answer.transactionId)): \(answer.stored) new, \(answer.alreadyStored) already stored."
        self.added = added
        hasAdded = !added.isEmpty
        noneAdded = added.isEmpty
        var notes: [String] = []
        for item in answer.unverified {
            notes.append("Transaction \(item.transactionId) does not verify and was not stored: \(item.reason)")
        }
        for transactionId in answer.unlinked {
            notes.append("Transaction \(transactionId) names no customer (no appAccountToken) and its purchase is linked to none: not stored.")
        }
        for conflict in answer.conflicts {
            notes.append("Transaction \(conflict.transactionId) belongs to a purchase of customer \(conflict.linkedTo): not stored here.")
        }
        let others = answer.customers.filter { $0 != customer }
        if !others.isEmpty {
            notes.append("Also stored for other customers: \(others.joined(separator: ", ")).")
        }
        self.notes = notes
        hasNotes = !notes.isEmpty
    }
}

/// An item a reconciliation stored for the customer.
struct ConsoleAddedItem: Sendable {
    let event: String
    let productId: String
    let transactionId: String
    let signed: ConsoleDate?
}
