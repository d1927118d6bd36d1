import ServiceLifecycle

/// SQLite's one writer: takes the waiting writes of ``GroupCommitQueue`` in batches and commits each
/// batch in one transaction (``SQLiteBackend/commit(_:busyTimeout:)``), then, once the queue is
/// closed and empty, closes the database.
///
/// A `Service` in the application's `ServiceGroup`, after the database's users in shutdown order:
/// graceful shutdown (or cancellation, past the shutdown timeout) closes the queue; the writes
/// already waiting are still committed or failed, then every connection closes.
struct SQLiteWriter: Service {
    let backend: SQLiteBackend

    func run() async throws {
        let queue = backend.queue
        await withTaskCancellationHandler {
            await withGracefulShutdownHandler {
                var busyTimeout = backend.busyTimeoutMilliseconds
                while let batch = await queue.nextBatch(limit: 512) {
                    busyTimeout = await backend.commit(batch, busyTimeout: busyTimeout)
                }
            } onGracefulShutdown: {
                queue.close()
            }
        } onCancel: {
            queue.close()
        }
        try await backend.closeConnections()
    }
}
