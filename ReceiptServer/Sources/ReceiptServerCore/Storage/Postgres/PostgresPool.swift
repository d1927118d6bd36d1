import PostgresNIO
import ServiceLifecycle
import Synchronization

/// PostgresNIO's `PostgresClient` as the application's `Service`, telling the store when it runs:
/// a lease taken before `run()` was called waits for it anyway, but PostgresNIO warns about it, and
/// the backfill or `--reverify` may ask for one while the group is still starting its services.
final class PostgresPool: Service, Sendable {
    let client: PostgresClient
    private let state = Mutex<(running: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    init(client: PostgresClient) {
        self.client = client
    }

    func run() async {
        let waiters = state.withLock { state in
            state.running = true
            let waiters = state.waiters
            state.waiters = []
            return waiters
        }
        // The waiters resume on other threads; this one goes straight into run(), whose first
        // step marks the client running.
        for waiter in waiters { waiter.resume() }
        await client.run()
    }

    /// Returns once ``run()`` started (at once after that).
    func waitUntilRunning() async {
        if state.withLock({ $0.running }) { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let running = state.withLock { state in
                if state.running { return true }
                state.waiters.append(continuation)
                return false
            }
            if running { continuation.resume() }
        }
    }
}
