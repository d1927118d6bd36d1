import Foundation
import Prometheus
import Synchronization

/// The server's Prometheus metrics, served at `GET /metrics` in the text exposition format.
///
/// Each server has its own registry (no process-wide bootstrap), so tests can run several servers
/// in one process. Series:
///
/// - `receipt_server_requests_total{method, route, status}` and
///   `receipt_server_request_duration_seconds{method, route}`: every answered request (`route` is
///   the route pattern, such as `/customers/{appAccountToken}/entitlements`, never a customer's ID);
/// - `receipt_server_verifications_total{kind, outcome}`: signed data the server verified from a
///   request: `outcome` is `verified` or the reason it was refused (`invalidSignature`,
///   `malformedJWS`, `invalidChain`, ...);
/// - `receipt_server_store_duration_seconds{operation}`: database calls timed with
///   ``timeStore(_:_:)`` (the health check, reconciliation);
/// - `receipt_server_connection_timeouts_total{timeout}`: connections closed by a
///   ``ConnectionLimits`` timeout (`header`, `body`, `idle`, `shutdown`);
/// - `receipt_server_open_connections`: connections open now;
/// - `receipt_server_connections_refused_total{reason}`: connections closed at once (`perAddress`);
/// - `receipt_server_authentication_throttled_total{surface}`: token attempts answered 429
///   (`bearer`, `console`) by the ``AuthenticationThrottle``;
/// - `receipt_server_sqlite_wal_bytes_total`: bytes the SQLite writer appended to the write-ahead log
///   (pages it wrote there, each with its 24-byte frame header), to tell what each write costs the
///   disk (SQLite only; Docs/Load.md);
/// - `receipt_server_backfill_runs_total{result}` (`ok`, `error`),
///   `receipt_server_backfill_duration_seconds`, `receipt_server_backfill_notifications_total{result}`
///   (`stored`, `alreadyStored`, `refused`, counted as each arrives) and
///   `receipt_server_backfill_last_success_timestamp_seconds`: the notification backfill.
///
/// Every update but those of the per-request series (requests, verifications, store durations,
/// the SQLite WAL bytes) is announced: ``waitUntil(_:)`` returns once a condition over the series
/// holds, for a test or a host that waits for what the server does in the background (an open
/// connection counted, an outbound event delivered, a refund request answered). An announcement
/// takes a lock (``ChangeNotice``); a request's own series are not announced, so answering a
/// request pays nothing for it.
public final class ServerMetrics: Sendable {
    /// The registry the series live in (add your own series to it; they appear at `/metrics`).
    public let registry: PrometheusCollectorRegistry
    /// Announces the updates ``waitUntil(_:)`` waits on.
    private let changes = ChangeNotice()
    private let openConnections: Gauge
    /// The series of each label set already used, so that a request finds its counter and
    /// histogram with one dictionary lookup instead of building their descriptors again.
    private let requestSeries = Mutex<[RequestKey: (Counter, DurationHistogram)]>([:])
    private let verificationSeries = Mutex<[LabelPair: Counter]>([:])
    private let storeSeries = Mutex<[LabelPair: DurationHistogram]>([:])

    private struct RequestKey: Hashable {
        let method: String
        let route: String
        let status: Int
    }

    private struct LabelPair: Hashable {
        let first: String
        let second: String
    }

    /// Request durations' bucket bounds.
    static let durationBuckets: [Duration] = [
        .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
        .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5), .seconds(10),
    ]

    /// Creates the metrics in a new registry, or in `registry`.
    ///
    /// - Parameter registry: the registry to add the series to.
    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        self.openConnections = registry.makeGauge(descriptor: Self.name("open_connections", unit: "", help: "HTTP connections open now."))
    }

    /// Counts an answered request and records its duration.
    ///
    /// - Parameters:
    ///   - method: the HTTP method.
    ///   - route: the route pattern (not the path: a path carries customer IDs).
    ///   - status: the answer's status code.
    ///   - duration: how long the answer took.
    public func recordRequest(method: String, route: String, status: Int, duration: Duration) {
        let key = RequestKey(method: method, route: route, status: status)
        let (counter, histogram) = requestSeries.withLock { series in
            if let known = series[key] { return known }
            let made = (
                registry.makeCounter(descriptor: Self.name("requests", unit: "total", help: "HTTP requests answered, by method, route pattern and status."),
                                     labels: [("method", method), ("route", route), ("status", String(status))]),
                registry.makeDurationHistogram(descriptor: Self.name("request_duration", unit: "seconds", help: "Time to answer an HTTP request."),
                                               labels: [("method", method), ("route", route)], buckets: Self.durationBuckets))
            series[key] = made
            return made
        }
        counter.increment()
        histogram.record(duration)
    }

    /// Counts one verification of signed data from a request.
    ///
    /// - Parameters:
    ///   - kind: what was verified (`transaction`, `notification`, ...).
    ///   - outcome: `verified`, or the reason it was refused (a `VerificationError` or
    ///     `SignedDataDecodingError` code such as `invalidSignature` or `malformedJWS`).
    public func recordVerification(kind: String, outcome: String) {
        let key = LabelPair(first: kind, second: outcome)
        verificationSeries.withLock { series in
            if let known = series[key] { return known }
            let made = registry.makeCounter(
                descriptor: Self.name("verifications", unit: "total", help: "Signed data verified from requests, by kind and outcome (verified, or the reason it was refused)."),
                labels: [("kind", kind), ("outcome", outcome)])
            series[key] = made
            return made
        }.increment()
    }

    /// Records how long one database call took.
    ///
    /// - Parameters:
    ///   - operation: the call (`storeTransaction`, `health`, ...).
    ///   - duration: how long it took.
    ///   - failed: whether it threw.
    public func recordStore(operation: String, duration: Duration, failed: Bool) {
        let key = LabelPair(first: operation, second: failed ? "error" : "ok")
        storeSeries.withLock { series in
            if let known = series[key] { return known }
            let made = registry.makeDurationHistogram(
                descriptor: Self.name("store_duration", unit: "seconds", help: "Time of database calls, by operation and result."),
                labels: [("operation", operation), ("result", key.second)], buckets: Self.durationBuckets)
            series[key] = made
            return made
        }.record(duration)
    }

    /// Runs a database call and records its duration under `operation`.
    ///
    /// - Parameters:
    ///   - operation: the call's name in the metric.
    ///   - body: the call.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws.
    public func timeStore<T, E: Error>(_ operation: String, _ body: () async throws(E) -> T) async throws(E) -> T {
        let clock = ContinuousClock()
        let start = clock.now
        do {
            let value = try await body()
            recordStore(operation: operation, duration: clock.now - start, failed: false)
            return value
        } catch {
            recordStore(operation: operation, duration: clock.now - start, failed: true)
            throw error
        }
    }

    /// Counts one notification of a backfill run, as it is handled.
    ///
    /// - Parameter result: `stored`, `alreadyStored` or `refused`.
    public func recordBackfilledNotification(result: String) {
        registry.makeCounter(descriptor: Self.name("backfill_notifications", unit: "total", help: "Notifications read from Get Notification History by the backfill, by what became of them."),
                             labels: [("result", result)]).increment()
        announce()
    }

    /// Counts one backfill run and records its duration; a successful one also sets the time of the
    /// last success.
    ///
    /// - Parameters:
    ///   - failed: whether the run stopped early.
    ///   - duration: how long it took.
    ///   - finishedAt: when it ended, in seconds since 1970.
    public func recordBackfillRun(failed: Bool, duration: Duration, finishedAt: Double) {
        registry.makeCounter(descriptor: Self.name("backfill_runs", unit: "total", help: "Notification backfill runs, by result."),
                             labels: [("result", failed ? "error" : "ok")]).increment()
        registry.makeDurationHistogram(descriptor: Self.name("backfill_duration", unit: "seconds", help: "Time of a notification backfill run."),
                                       buckets: Self.backfillBuckets).record(duration)
        if !failed {
            registry.makeGauge(descriptor: Self.name("backfill_last_success_timestamp", unit: "seconds", help: "When the last notification backfill run that read every page ended, in seconds since 1970."))
                .set(to: finishedAt)
        }
        announce()
    }

    /// Backfill durations' bucket bounds.
    static let backfillBuckets: [Duration] = [.milliseconds(100), .seconds(1), .seconds(5), .seconds(30), .seconds(120), .seconds(600)]

    /// Counts a connection closed by a timeout.
    ///
    /// - Parameter timeout: which one: `header`, `body`, `idle` or `shutdown`.
    public func recordConnectionTimeout(_ timeout: String) {
        registry.makeCounter(descriptor: Self.name("connection_timeouts", unit: "total", help: "Connections closed because the client was too slow, by timeout."),
                             labels: [("timeout", timeout)]).increment()
        announce()
    }

    /// Counts a connection closed at once because its address had
    /// ``ConnectionLimits/maximumConnectionsPerAddress`` open (`receipt_server_connections_refused_total{reason="perAddress"}`).
    public func recordConnectionRefusedPerAddress() {
        registry.makeCounter(descriptor: Self.name("connections_refused", unit: "total", help: "Connections closed at once, by reason (perAddress: the client address had its most connections open)."),
                             labels: [("reason", "perAddress")]).increment()
        announce()
    }

    /// Counts a token attempt answered 429 because its client address guessed wrong too often
    /// (`receipt_server_authentication_throttled_total{surface}`).
    ///
    /// - Parameter surface: where the token was presented: `bearer` or `console`.
    public func recordAuthenticationThrottled(_ surface: String) {
        registry.makeCounter(descriptor: Self.name("authentication_throttled", unit: "total", help: "Token attempts refused with 429 after too many wrong tokens from the client address, by surface (bearer, console)."),
                             labels: [("surface", surface)]).increment()
        announce()
    }

    /// The counter of bytes SQLite's writer appended to its write-ahead log.
    func makeSQLiteWALCounter() -> Counter {
        registry.makeCounter(descriptor: Self.name("sqlite_wal_bytes", unit: "total", help: "Bytes the SQLite writer appended to the write-ahead log (pages with their frame headers)."))
    }

    /// `receipt_server_<metric>_<unit>`, with its help text.
    private static func name(_ metric: String, unit: String, help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "receipt_server", metricName: metric, unitName: unit, helpText: help)
    }

    /// Counts a connection opened.
    func connectionOpened() {
        openConnections.increment()
        changes.changed()
    }

    /// Counts a connection closed.
    func connectionClosed() {
        openConnections.decrement()
        changes.changed()
    }

    /// Announces an update to whoever waits in ``waitUntil(_:)`` (call it after the update).
    func announce() { changes.changed() }

    /// Returns once `condition` holds over these metrics, checking it now and after each announced
    /// update (every series but the per-request ones; see the type's documentation). Bound the
    /// wait yourself (cancel the task) if the condition may never hold.
    ///
    /// - Parameter condition: the condition, for example over ``exposition()``.
    /// - Throws: `CancellationError` when the task is cancelled first.
    public func waitUntil(_ condition: (ServerMetrics) -> Bool) async throws {
        try await changes.waitUntil { condition(self) }
    }

    /// The exposition text of every series.
    public func exposition() -> String {
        registry.emitToString()
    }
}
