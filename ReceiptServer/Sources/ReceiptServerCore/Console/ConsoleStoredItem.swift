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
