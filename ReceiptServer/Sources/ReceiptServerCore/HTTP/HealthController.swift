import Hummingbird

/// `GET /health`: 200 `{"status": "ok"}` when the database answers a query; 503
/// `storageUnavailable` (with `Retry-After`) when it does not. Open to everyone; it reveals nothing.
struct HealthController: Sendable {
    let server: ReceiptServerContext
    let metrics: ServerMetrics

    /// The customer key the probe reads: a customer that cannot exist (the nil UUID).
    static let probeCustomer = "00000000-0000-0000-0000-000000000000"

    /// Adds `GET /health` (open to everyone: it says ready or not, nothing else).
    func addRoutes(to router: some RouterMethods<ReceiptRequestContext>) {
        router.get("health", use: handle)
    }

    @Sendable func handle(_ request: Request, context: ReceiptRequestContext) async throws -> Response {
        do {
            _ = try await metrics.timeStore("health") { () async throws(StorageError) in
                try await server.store.signedData(forCustomer: Self.probeCustomer)
            }
        } catch {
            throw APIError.storageUnavailable(error)
        }
        return JSONBody.response(["status": "ok"])
    }
}
