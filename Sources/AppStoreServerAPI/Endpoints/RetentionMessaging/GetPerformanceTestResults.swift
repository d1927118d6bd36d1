extension AppStoreServerAPIClient {
    /// The results of a performance test of your Get Retention Message endpoint:
    /// [Get Performance Test Results](https://developer.apple.com/documentation/retentionmessaging/get-performance-test-results),
    /// `GET /inApps/v1/messaging/performanceTest/result/{requestId}`.
    ///
    /// - Parameter requestId: the ``PerformanceTestResponse/requestId`` of
    ///   ``initiatePerformanceTest(request:)``.
    /// - Returns: the results so far (``PerformanceTestResultResponse/result`` is `.pending` while
    ///   the test runs).
    /// - Throws: ``AppStoreServerAPIError``; Apple's ``APIErrorCode/performanceTestRunNotFound``.
    public func getPerformanceTestResults(requestId: String) async throws(AppStoreServerAPIError) -> PerformanceTestResultResponse {
        let call = try APIRequest(messaging: "GET", [.literal("performanceTest"), .literal("result"), .parameter(name: "requestId", value: requestId)])
        return try decode(PerformanceTestResultResponse.self, from: try await send(call), of: call)
    }
}
