/// One row of a customer's timeline: a stored item, what it is, and its verdicts (now, and at the
/// server's last verification).
struct ConsoleTimelineRow: Sendable {
    let signed: ConsoleDate?
    let event: String
    let detail: String?
    let dates: [ConsoleLabeledDate]
    let productId: String
    /// ``productId`` split after its dots, where the page may break the line.
    let productIdParts: [String]
    /// `nil` for data without one (renewal info).
    let transactionId: String?
    /// Shown only when it differs from ``transactionId``.
    let originalTransactionId: String?
    let environment: String
    /// Whether it verifies under the current trusted roots.
    let verified: Bool
    /// The codes of what does not verify (the item's page says more).
    let failure: String?
    /// Why the server's last verification did not count it (set by `--reverify`).
    let storedRejection: String?
    let payloadURL: String
    /// `unverified` for an item that does not verify now or does not count.
    let rowClass: String

    init(_ item: ConsoleDecodedItem, customer: String) {
        signed = item.signed
        event = item.event
        detail = item.detail
        dates = item.dates
        productId = item.productId
        productIdParts = ConsoleProductName.parts(item.productId)
        transactionId = item.transactionId.isEmpty ? nil : item.transactionId
        originalTransactionId = item.originalTransactionId.isEmpty || item.originalTransactionId == item.transactionId ? nil : item.originalTransactionId
        environment = item.environment
        verified = item.verifies
        failure = item.failureCodes
        storedRejection = item.row.rejections.isEmpty ? nil : item.row.rejections.map(\.code).joined(separator: "; ")
        payloadURL = ConsolePaths.item(item.row.id, of: customer)
        rowClass = verified && storedRejection == nil ? "" : "unverified"
    }
}
