/// One stored JWS of a customer as the console reads it: the row as stored, when it arrived, and
/// what the server's last verification of it said (``ReceiptStore/consoleItems(ofCustomer:id:)``).
struct ConsoleStoredItem: Sendable, Equatable {
    /// The row's number in `signed_data` (the item page's URL names it).
    let id: Int64
    /// The JWS and its identifiers.
    let stored: StoredSignedData
    /// When the server stored it, in milliseconds since 1970.
    let receivedAt: Int64
    /// What did not verify at its last verification (on arrival, or `ReceiptServer --reverify`);
    /// empty when all of it counts.
    let rejections: [RejectionJSON]
}

extension ConsoleStoredItem {
    /// An item read from a row of either database: its `rejections` column (a JSON array, or NULL
    /// for none) decoded; a column that is not JSON is shown as one rejection that says so.
    init(id: Int64, stored: StoredSignedData, receivedAt: Int64?, rejectionsJSON: String?) {
        let rejections = (try? VerifiedRecords.rejections(fromJSON: rejectionsJSON ?? "[]"))
            ?? [RejectionJSON(item: VerifiedRecords.name(of: stored.kind, transactionId: stored.transactionId,
                                                          notificationUUID: stored.notificationUUID,
                                                          originalTransactionId: stored.originalTransactionId),
                              code: "corruptRecords", message: "the stored rejections are not JSON; run ReceiptServer --reverify")]
        self.init(id: id, stored: stored, receivedAt: receivedAt ?? 0, rejections: rejections)
    }
}
