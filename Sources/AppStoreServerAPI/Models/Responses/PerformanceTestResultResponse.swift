/// The results of a retention-messaging performance test (Apple's `PerformanceTestResultResponse`).
public struct PerformanceTestResultResponse: Sendable, Hashable, Decodable {
    /// The test's parameters.
    public let config: PerformanceTestConfig?
    /// The URL the test called.
    public let target: String?
    /// Pending, passed or failed.
    public let result: PerformanceTestStatus?
    /// The share of requests, in percent, your endpoint answered in time.
    public let successRate: Int64?
    /// How many requests are still pending.
    public let numPending: Int64?
    /// Your endpoint's response times.
    public let responseTimes: PerformanceTestResponseTimes?
    /// How many requests failed, by reason, as Apple sends it (`failures`, keyed by
    /// ``SendAttemptResult`` raw values).
    public let rawFailures: [String: Int64]?

    /// ``rawFailures`` keyed by ``SendAttemptResult`` (an undocumented reason keeps its raw value).
    public var failures: [SendAttemptResult: Int64]? {
        rawFailures.map { raw in
            Dictionary(raw.map { (SendAttemptResult(rawValue: $0.key), $0.value) }, uniquingKeysWith: { first, _ in first })
        }
    }

    private enum CodingKeys: String, CodingKey {
        case config, target, result, successRate, numPending, responseTimes
        case rawFailures = "failures"
    }
}
