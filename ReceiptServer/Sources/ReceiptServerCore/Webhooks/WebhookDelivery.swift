import AppStoreVerification
import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import ServiceLifecycle
import Synchronization

/// Delivers the outbox (Docs/Webhooks.md), as a `Service` in the server's group: a few workers,
/// each leasing the oldest due event whose customer has no earlier pending one, POSTing it signed
/// (Standard Webhooks headers, the same `webhook-id` on every attempt) and recording the outcome;
/// failures are retried with exponential backoff and jitter until the retry period ends, then
/// dead-lettered. Beside them, the expiry check writes `entitlements.changed` for customers whose
/// entitlements time alone changed. Workers wake when a commit wrote events, else poll (events
/// other processes wrote, retries coming due). On graceful shutdown the workers finish the
/// attempts in flight (each bounded by the timeout) and stop; it runs before the store's services
/// in the group, so it stops before they close the database.
final class WebhookDelivery: Service, Sendable {
    let outbox: WebhookOutbox
    let storage: any WebhookOutboxStorage
    let metrics: ServerMetrics
    let logger: Logger
    private let stopping = Atomic<Bool>(false)

    init(outbox: WebhookOutbox, storage: any WebhookOutboxStorage, metrics: ServerMetrics, logger: Logger) {
        self.outbox = outbox
        self.storage = storage
        self.metrics = metrics
        self.logger = logger
    }

    private var configuration: WebhookConfiguration { outbox.configuration }

    func run() async throws {
        var clientConfiguration = HTTPClient.Configuration()
        clientConfiguration.redirectConfiguration = .disallow
        clientConfiguration.timeout = .init(connect: Self.timeAmount(configuration.timeout), read: Self.timeAmount(configuration.timeout))
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: clientConfiguration)
        logger.info("outbound events on", metadata: [
            "endpoints": "\(configuration.endpoints.count)", "retry_period": "\(configuration.retryPeriod)",
            "expiry_check_interval": "\(configuration.expiryCheckInterval)",
        ])
        await withGracefulShutdownHandler {
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<max(1, configuration.concurrency) {
                    group.addTask { await self.work(client: client) }
                }
                group.addTask { await self.checkExpiries() }
            }
        } onGracefulShutdown: {
            self.stopping.store(true, ordering: .sequentiallyConsistent)
            self.outbox.signal.changed()
        }
        try? await client.shutdown()
    }

    private var isStopping: Bool { stopping.load(ordering: .sequentiallyConsistent) || Task.isCancelled }

    /// One worker: lease, deliver, record; wait when nothing is due.
    private func work(client: HTTPClient) async {
        let endpoints = outbox.endpoints
        while !isStopping {
            let generation = outbox.signal.generation
            let now = UnixMilliseconds.of(Date())
            let lease = configuration.timeout * 3 + .seconds(5)
            let claimed: ClaimedDelivery?
            do {
                claimed = try await storage.claimWebhook(
                    endpoints: endpoints, now: now, leaseUntil: now + Self.milliseconds(lease), token: UUID().uuidString)
            } catch {
                logger.warning("outbound events: leasing the next event failed: \(LogSafeText.escaping("\(error)")); trying again in \(configuration.pollInterval)")
                await outbox.signal.wait(after: outbox.signal.generation, timeout: configuration.pollInterval)
                continue
            }
            guard let claimed else {
                await outbox.signal.wait(after: generation, timeout: configuration.pollInterval)
                continue
            }
            let (outcome, attempt) = await deliver(claimed, client: client)
            do {
                try await storage.finishWebhook(claimed, outcome: outcome, now: UnixMilliseconds.of(Date()))
            } catch {
                // The lease runs out and the event is delivered again (at least once).
                logger.warning("outbound events: recording event \(claimed.webhookId)'s attempt failed: \(LogSafeText.escaping("\(error)")); it is delivered again once its lease runs out")
            }
            // Counted once recorded: whoever sees the count (a test waiting on it) finds the row.
            switch attempt {
            case .delivered(let latency): metrics.recordWebhookDelivered(latency: latency)
            case .retried: metrics.recordWebhookRetried()
            case .dead: metrics.recordWebhookDeadLettered()
            }
        }
    }

    /// An attempt's result, as counted in `receipt_server_webhook_deliveries_total`.
    private enum Attempt {
        /// Delivered, `latency` after the event's commit.
        case delivered(latency: Duration)
        case retried
        case dead
    }

    /// One attempt, signed now: its outcome for the database and its result for the metrics.
    private func deliver(_ claimed: ClaimedDelivery, client: HTTPClient) async -> (DeliveryOutcome, Attempt) {
        let timestamp = Int64(Date().timeIntervalSince1970)
        var request = HTTPClientRequest(url: claimed.endpoint)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "ReceiptServer-Webhooks/1")
        request.headers.add(name: "webhook-id", value: claimed.webhookId)
        request.headers.add(name: "webhook-timestamp", value: String(timestamp))
        request.headers.add(name: "webhook-signature", value: WebhookSignature.sign(id: claimed.webhookId, timestamp: timestamp, body: claimed.body, secret: configuration.secret))
        request.body = .bytes(ByteBuffer(string: claimed.body))
        let host = URL(string: claimed.endpoint)?.host ?? "?"
        var status: Int?
        var failure: String
        do {
            let response = try await client.execute(request, timeout: Self.timeAmount(configuration.timeout))
            _ = try? await response.body.collect(upTo: 64 * 1024)
            status = Int(response.status.code)
            if (200..<300).contains(Int(response.status.code)) {
                return (.delivered(status: Int(response.status.code)), .delivered(latency: .milliseconds(max(0, UnixMilliseconds.of(Date()) - claimed.createdAt))))
            }
            failure = "answered \(response.status.code)"
        } catch {
            failure = "no answer: \(error)"
        }
        let attempts = Int(claimed.attempts) + 1
        let now = UnixMilliseconds.of(Date())
        let next = now + Self.milliseconds(configuration.retryDelay(afterAttempts: attempts))
        if next > claimed.retrySince + Self.milliseconds(configuration.retryPeriod) {
            logger.error("""
                outbound event \(claimed.webhookId) dead-lettered: \(host) \(LogSafeText.escaping(failure)) on each of \(attempts) attempts over \
                \(configuration.retryPeriod). Fix the endpoint, then redeliver it from the support console.
                """)
            return (.failed(status: status, error: failure, nextAttemptAt: nil), .dead)
        }
        logger.notice("outbound event \(claimed.webhookId) to \(host) \(LogSafeText.escaping(failure)) (attempt \(attempts)); retrying in \(Double(next - now) / 1000) s")
        return (.failed(status: status, error: failure, nextAttemptAt: next), .retried)
    }

    /// Every `expiryCheckInterval`: customers whose entitlements time alone may have changed get
    /// them computed again (an event when they changed); the pending and dead-lettered gauges are
    /// refreshed.
    private func checkExpiries() async {
        let clock = ContinuousClock()
        var due = clock.now
        while !isStopping {
            if clock.now >= due {
                due = clock.now + configuration.expiryCheckInterval
                do {
                    let now = UnixMilliseconds.of(outbox.clock.now)
                    while !isStopping {
                        let customers = try await storage.dueWebhookCustomers(now: now, limit: 100)
                        for customer in customers where !isStopping {
                            try await storage.recheckWebhookCustomer(customer, outbox: outbox)
                        }
                        if customers.count < 100 { break }
                    }
                    let health = try await storage.webhookEndpointHealth()
                    metrics.recordWebhookBacklog(pending: health.reduce(0) { $0 + $1.pending }, dead: health.reduce(0) { $0 + $1.dead })
                } catch {
                    logger.warning("outbound events: the expiry check failed: \(LogSafeText.escaping("\(error)")); it runs again in \(configuration.expiryCheckInterval)")
                }
            }
            let remaining = due - clock.now
            if remaining > .zero {
                await outbox.signal.wait(after: outbox.signal.generation, timeout: remaining)
            }
        }
    }

    static func milliseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    }

    static func timeAmount(_ duration: Duration) -> TimeAmount {
        .milliseconds(max(1, milliseconds(duration)))
    }
}
