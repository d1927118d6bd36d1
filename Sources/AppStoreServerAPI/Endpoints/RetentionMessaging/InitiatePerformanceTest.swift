extension AppStoreServerAPIClient {
    /// Starts a performance test of your Get Retention Message endpoint in the sandbox:
    /// [Initiate Performance Test](https://developer.apple.com/documentation/retentionmessaging/initiate-performance-test),
    /// `POST /inApps/v1/messaging/performanceTest`.
    ///
    /// - Parameter request: the sandbox purchase the test's requests are about.
    /// - Returns: the test's identifier and parameters; poll
    ///   ``getPerformanceTestResults(requestId:)`` with the identifier.
    /// - Throws: ``AppStoreServerAPIError``; Apple's ``APIErrorCode/existingPerformanceTestRun``
    ///   while another test runs (which a retry of this call after a 5xx may also meet).
    public func initiatePerformanceTest(request: PerformanceTestRequest) async throws(AppStoreServerAPIError) -> PerformanceTestResponse {
        let call = try APIRequest(messaging: "POST", [.literal("performanceTest")], body: try encode(request, for: "POST /inApps/v1/messaging/performanceTest"))
        return try decode(PerformanceTestResponse.self, from: try await send(call), of: call)
    }
}
