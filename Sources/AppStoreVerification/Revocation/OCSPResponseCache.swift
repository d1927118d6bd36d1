import Foundation

/// Verified OCSP answers per (certificate, issuer), until their nextUpdate (bounded by the maximum
/// age), with single flight: concurrent verifications needing the same answer share one request.
///
/// Good and revoked answers are cached; failures (unavailable, or a permanent refusal such as
/// "unknown" or a bad signature) are not, so the next verification asks again.
final class OCSPResponseCache: @unchecked Sendable {
    private let answers: LRUCache<OCSPCacheKey, OCSPAnswer>
    private let lock = NSLock()
    private var inFlight: [OCSPCacheKey: Task<OCSPOutcome, Never>] = [:]

    init(capacity: Int) {
        answers = LRUCache(capacity: capacity)
    }

    /// The cached answer for `key` if it is still reusable at `now`.
    func answer(for key: OCSPCacheKey, at now: Int64) -> OCSPAnswer? {
        answers.value(for: key, where: { now < $0.reusableUntil })
    }

    /// The cached answer, else the outcome of the request already in flight for `key`, else the
    /// outcome of `fetch` (started once, shared by every caller that arrives meanwhile). Entries are
    /// judged at `clock`'s current second.
    func outcome(for key: OCSPCacheKey, clock: AppStoreClock, fetch: @escaping @Sendable () async -> OCSPOutcome) async -> OCSPOutcome {
        if let answer = answer(for: key, at: clock.nowSeconds) {
            return .answer(answer)
        }
        let task: Task<OCSPOutcome, Never> = lock.withLock {
            // Checked again under the lock: a request that finished since stored its answer first.
            if let answer = answer(for: key, at: clock.nowSeconds) {
                return Task { .answer(answer) }
            }
            if let running = inFlight[key] {
                return running
            }
            let started = Task { [answers] in
                let outcome = await fetch()
                if case .answer(let answer) = outcome, clock.nowSeconds < answer.reusableUntil {
                    answers.insert(answer, for: key)
                }
                self.finished(key)
                return outcome
            }
            inFlight[key] = started
            return started
        }
        return await task.value
    }

    private func finished(_ key: OCSPCacheKey) {
        lock.withLock { _ = inFlight.removeValue(forKey: key) }
    }

    /// How many answers are cached.
    var count: Int { answers.count }
}
