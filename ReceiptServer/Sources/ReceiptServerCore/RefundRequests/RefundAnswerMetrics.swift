import Foundation
import Prometheus

extension ServerMetrics {
    /// Counts one refund request at its end (`receipt_server_refund_requests_total{result}`):
    /// `answered`, `skippedNoConsent`, `skippedNoFacts`, `failed` (Apple refused it, or it breaks
    /// Apple's rules) or `missed` (not answered within Apple's 12 hours); an answered one also
    /// records the time from the request's `signedDate` to Apple's acceptance
    /// (`receipt_server_refund_answer_seconds`).
    ///
    /// - Parameters:
    ///   - result: how the request ended.
    ///   - timeToAnswer: for `answered`, the time since the request's `signedDate`.
    public func recordRefundRequest(result: String, timeToAnswer: Duration? = nil) {
        registry.makeCounter(descriptor: MetricNameDescriptor(
            namespace: "receipt_server", metricName: "refund_requests", unitName: "total",
            helpText: "CONSUMPTION_REQUEST notifications by how their answer ended (answered, skippedNoConsent, skippedNoFacts, failed, missed)."),
                             labels: [("result", result)]).increment()
        if let timeToAnswer {
            registry.makeDurationHistogram(descriptor: MetricNameDescriptor(
                namespace: "receipt_server", metricName: "refund_answer", unitName: "seconds",
                helpText: "Time from a CONSUMPTION_REQUEST's signedDate to Apple accepting the answer."),
                                           buckets: Self.refundAnswerBuckets).record(timeToAnswer)
        }
        announce()
    }

    /// Counts one attempt to send consumption information that failed and will be tried again
    /// (`receipt_server_refund_answer_retries_total`).
    public func recordRefundAnswerRetry() {
        registry.makeCounter(descriptor: MetricNameDescriptor(
            namespace: "receipt_server", metricName: "refund_answer_retries", unitName: "total",
            helpText: "Attempts to send consumption information that failed and are tried again (429, 5xx, network, 401).")).increment()
        announce()
    }

    /// Time-to-answer bucket bounds: seconds to Apple's 12 hours.
    static let refundAnswerBuckets: [Duration] = [
        .seconds(1), .seconds(10), .seconds(60), .seconds(600), .seconds(3600), .seconds(4 * 3600), .seconds(12 * 3600),
    ]
}
