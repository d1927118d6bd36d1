/// The console's reads of the store, beside the service's own: a customer's rows with their
/// stored verification, and which customer an identifier belongs to. Each database answers them in
/// its own idiom (``StoreBackend``: `SQLiteConsoleReads.swift`, `PostgresConsoleReads.swift`).
extension ReceiptStore {
    /// Every stored JWS of the customer's purchases, oldest first (or only row `id`, when it is
    /// theirs).
    ///
    /// - Throws: ``StorageError`` on a database failure.
    func consoleItems(ofCustomer customer: String, id: Int64? = nil) async throws(StorageError) -> [ConsoleStoredItem] {
        try await backend.consoleItems(ofCustomer: customer, id: id)
    }

    /// Whether anything was ever stored for the customer.
    ///
    /// - Throws: ``StorageError`` on a database failure.
    func consoleKnows(customer: String) async throws(StorageError) -> Bool {
        try await backend.consoleKnows(customer: customer)
    }

    /// The customer (or unlinked purchase) a transaction ID, original transaction ID or
    /// notification UUID belongs to; `nil` when nothing stored has it.
    ///
    /// A purchase (`originalTransactionId`) is one indexed read; a `transactionId` of a later
    /// transaction (a renewal) or a `notificationUUID` is looked for in every stored row.
    ///
    /// - Throws: ``StorageError`` on a database failure.
    func consoleMatch(forIdentifier identifier: String) async throws(StorageError) -> ConsoleSearchMatch? {
        try await backend.consoleMatch(forIdentifier: identifier)
    }
}
