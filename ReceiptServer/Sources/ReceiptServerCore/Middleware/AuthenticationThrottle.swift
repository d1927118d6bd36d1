import NIOConcurrencyHelpers

/// Slows down token guessing per client address (``AuthenticationThrottleLimits``), shared by the
/// bearer token check (``BearerTokenMiddleware``) and the console's sign-in, since both guess the
/// same token.
final class AuthenticationThrottle: Sendable {
    /// One address's failures.
    private struct Record {
        var failures: Int
        var lastFailure: ContinuousClock.Instant
        var blockedUntil: ContinuousClock.Instant?
    }

    let limits: AuthenticationThrottleLimits
    private let records = NIOLockedValueBox<[String: Record]>([:])
    private let clock = ContinuousClock()

    /// - Parameter limits: how failures slow an address down.
    init(limits: AuthenticationThrottleLimits) {
        self.limits = limits
    }

    /// How long `key` must wait before a token it presents is looked at, or `nil` when it may try now.
    func wait(for key: String) -> Duration? {
        let now = clock.now
        return records.withLockedValue { records in
            guard let record = records[key] else { return nil }
            if now - record.lastFailure > limits.forgetAfter {
                records[key] = nil
                return nil
            }
            guard let until = record.blockedUntil, until > now else { return nil }
            return until - now
        }
    }

    /// Records a wrong token from `key`.
    func recordFailure(_ key: String) {
        let now = clock.now
        records.withLockedValue { records in
            var record = records[key].flatMap { now - $0.lastFailure > limits.forgetAfter ? nil : $0 }
                ?? Record(failures: 0, lastFailure: now, blockedUntil: nil)
            record.failures += 1
            record.lastFailure = now
            let excess = record.failures - max(0, limits.freeFailures)
            if excess > 0 {
                let doublings = min(excess - 1, 30)
                let delay = min(limits.firstDelay * (1 << doublings), limits.maximumDelay)
                record.blockedUntil = now + delay
            }
            if records[key] == nil, records.count >= max(1, limits.maximumAddresses) {
                Self.forgetOldest(&records, now: now, forgetAfter: limits.forgetAfter)
            }
            records[key] = record
        }
    }

    /// Records the right token from `key`: its failures are forgotten.
    func recordSuccess(_ key: String) {
        records.withLockedValue { records in
            if records[key] != nil { records[key] = nil }
        }
    }

    /// Makes room when the table is full: drops every expired record and, if that is not enough,
    /// the least recently failed tenth (so that many addresses guessing at once cost one sort per
    /// tenth of the table, not a scan per failure).
    private static func forgetOldest(_ records: inout [String: Record], now: ContinuousClock.Instant, forgetAfter: Duration) {
        let capacity = records.count
        records = records.filter { now - $0.value.lastFailure <= forgetAfter }
        guard records.count >= capacity else { return }
        let oldest = records.sorted { $0.value.lastFailure < $1.value.lastFailure }.prefix(max(1, capacity / 10))
        for (key, _) in oldest { records[key] = nil }
    }

    /// `Retry-After`'s value for `wait`: whole seconds, at least 1.
    static func retryAfterSeconds(_ wait: Duration) -> Int {
        let (seconds, attoseconds) = wait.components
        return max(1, Int(seconds) + (attoseconds > 0 ? 1 : 0))
    }
}
