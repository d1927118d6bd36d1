/// Your endpoint's response times during a performance test, in milliseconds (Apple's
/// `PerformanceTestResponseTimes`).
public struct PerformanceTestResponseTimes: Sendable, Hashable, Decodable {
    /// The mean.
    public let average: Int64?
    /// The median.
    public let p50: Int64?
    /// The 90th percentile.
    public let p90: Int64?
    /// The 95th percentile.
    public let p95: Int64?
    /// The 99th percentile.
    public let p99: Int64?
}
