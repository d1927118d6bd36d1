/// A started retention-messaging performance test (Apple's `PerformanceTestResponse`).
public struct PerformanceTestResponse: Sendable, Hashable, Decodable {
    /// The test's parameters.
    public let config: PerformanceTestConfig?
    /// The test's identifier: pass it to
    /// ``AppStoreServerAPIClient/getPerformanceTestResults(requestId:)``.
    public let requestId: String?
}
