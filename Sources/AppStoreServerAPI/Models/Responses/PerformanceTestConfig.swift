/// The parameters of a retention-messaging performance test (Apple's `PerformanceTestConfig`).
public struct PerformanceTestConfig: Sendable, Hashable, Decodable {
    /// The most requests Apple sends your endpoint at once.
    public let maxConcurrentRequests: Int64?
    /// How many requests the test sends.
    public let totalRequests: Int64?
    /// How long the test runs, in milliseconds.
    public let totalDuration: Int64?
    /// The time your endpoint has to answer each request, in milliseconds.
    public let responseTimeThreshold: Int64?
    /// The share of requests, in percent, that must succeed for the test to pass.
    public let successRateThreshold: Int64?
}
