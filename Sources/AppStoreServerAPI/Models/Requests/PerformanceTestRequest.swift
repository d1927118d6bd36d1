/// The body of Initiate Performance Test (Apple's `PerformanceTestRequest`).
public struct PerformanceTestRequest: Sendable, Hashable, Encodable {
    /// The original transaction ID of a sandbox purchase the test's requests are about.
    public var originalTransactionId: String

    /// A performance test request.
    ///
    /// - Parameter originalTransactionId: a sandbox purchase's original transaction ID.
    public init(originalTransactionId: String) {
        self.originalTransactionId = originalTransactionId
    }
}
