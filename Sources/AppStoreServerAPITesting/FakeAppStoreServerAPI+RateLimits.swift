import AppStoreServerAPI
import Foundation

extension FakeAppStoreServerAPI {
    /// Makes the fake enforce Apple's published per-endpoint rate limits as Apple documents them:
    /// each endpoint of Apple's *Identifying rate limits* table allows its rate × `scale` ×
    /// `window` requests in any `window` (10 % of that when the fake is a sandbox); a request past
    /// it is answered 429 with Apple's error body and a `Retry-After` (in `form`) naming when the
    /// oldest request in the window leaves it. Endpoints the table does not list are not limited.
    ///
    /// ``rateLimitedRequests`` counts the 429s it gave. A small `scale` and `window` make a test's
    /// few hundred requests meet the limit (`scale: 0.5, window: .seconds(2)` allows 5 Get
    /// Transaction History requests every 2 s in the sandbox).
    ///
    /// - Parameters:
    ///   - scale: the share of Apple's published rate allowed.
    ///   - window: the period a budget is counted over (Apple's is an hour).
    ///   - form: how `Retry-After` is written; Apple's UNIX time in milliseconds by default.
    public func enforcePublishedRateLimits(scale: Double = 1, window: Duration = .seconds(3600), form: RetryAfterForm = .unixMilliseconds) {
        state.setRateLimits(FakeRateLimits(scale: scale, window: window, form: form))
    }

    /// How many requests the enforced rate limits answered 429.
    public var rateLimitedRequests: Int { state.rateLimitedRequests }
}

/// The published rate limits a fake enforces: an exact log of each endpoint's requests in the
/// window.
struct FakeRateLimits: Sendable {
    let scale: Double
    let window: Duration
    let form: FakeAppStoreServerAPI.RetryAfterForm
    private var log: [String: [ContinuousClock.Instant]] = [:]

    init(scale: Double, window: Duration, form: FakeAppStoreServerAPI.RetryAfterForm) {
        self.scale = scale
        self.window = window
        self.form = form
    }

    /// Counts `request` and returns `nil`, or returns the 429 that refuses it (not counted).
    mutating func refusal(of request: FakeAppStoreServerAPI.Request, sandbox: Bool) -> FakeAppStoreServerAPI.Response? {
        guard let limit = PublishedRateLimit.matching(method: request.method, path: request.path) else { return nil }
        let now = ContinuousClock.now
        var sent = log[limit.endpoint, default: []].filter { now - $0 < window }
        defer { log[limit.endpoint] = sent }
        guard sent.count >= limit.budget(window: window, scale: scale, sandbox: sandbox), let oldest = sent.first else {
            sent.append(now)
            return nil
        }
        let wait = oldest + window - now
        let seconds = Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18
        var response = FakeAppStoreServerAPI.Response.apiError(status: 429, code: .rateLimitExceeded, message: APIErrorMessages.message(for: .rateLimitExceeded))
        response.headers.append(.init(name: "Retry-After", value: form.value(waiting: seconds, from: Date())))
        return response
    }
}
