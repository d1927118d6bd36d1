extension ReceiptStore {
    /// The outbox operations of the store's database.
    var webhookStorage: (any WebhookOutboxStorage)? { backend as? any WebhookOutboxStorage }

    /// The customer's latest outbound events, newest first (the support console).
    ///
    /// - Throws: ``StorageError`` on a database failure.
    public func webhookEvents(ofCustomer customer: String, limit: Int = 50) async throws(StorageError) -> [WebhookEventRow] {
        guard let storage = webhookStorage else { return [] }
        return try await storage.webhookEvents(ofCustomer: customer, limit: limit)
    }

    /// Every endpoint's backlog and whether it is failing.
    ///
    /// - Throws: ``StorageError`` on a database failure.
    public func webhookEndpointHealth() async throws(StorageError) -> [WebhookEndpointHealth] {
        guard let storage = webhookStorage else { return [] }
        return try await storage.webhookEndpointHealth()
    }

    /// Makes the customer's dead-lettered event `id` pending again (a new retry period).
    ///
    /// - Returns: false when the customer has no such dead-lettered event.
    /// - Throws: ``StorageError`` on a database failure.
    public func redeliverWebhook(id: Int64, customer: String, now: Int64) async throws(StorageError) -> Bool {
        guard let storage = webhookStorage else { return false }
        return try await storage.redeliverWebhook(id: id, customer: customer, now: now)
    }
}
