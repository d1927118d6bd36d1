import Foundation
import Prometheus

/// The outbound events' series (Docs/Webhooks.md):
///
/// - `receipt_server_webhook_deliveries_total{result}`: attempts of this process, by result
///   (`delivered`, `retried`: failed and scheduled again, `dead`: failed for the last time),
///   counted once the attempt's outcome is recorded in the database (or recording it failed);
/// - `receipt_server_webhook_delivery_latency_seconds`: from an event's commit to its delivery;
/// - `receipt_server_webhook_pending` and `receipt_server_webhook_dead_lettered`: events waiting
///   and dead-lettered in the database (all processes), refreshed at each expiry check.
extension ServerMetrics {
    static let webhookLatencyBuckets: [Duration] = [
        .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(5), .seconds(30),
        .seconds(60), .seconds(300), .seconds(1800), .seconds(3600), .seconds(6 * 3600), .seconds(86_400),
    ]

    private static func webhookName(_ metric: String, unit: String, help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "receipt_server", metricName: metric, unitName: unit, helpText: help)
    }

    private func webhookAttempt(_ result: String) {
        registry.makeCounter(descriptor: Self.webhookName("webhook_deliveries", unit: "total", help: "Outbound event delivery attempts of this process, by result (delivered, retried, dead)."),
                             labels: [("result", result)]).increment()
        announce()
    }

    func recordWebhookDelivered(latency: Duration) {
        registry.makeDurationHistogram(descriptor: Self.webhookName("webhook_delivery_latency", unit: "seconds", help: "Time from an outbound event's commit to its delivery."),
                                       buckets: Self.webhookLatencyBuckets).record(latency)
        webhookAttempt("delivered")
    }

    func recordWebhookRetried() { webhookAttempt("retried") }

    func recordWebhookDeadLettered() { webhookAttempt("dead") }

    func recordWebhookBacklog(pending: Int64, dead: Int64) {
        registry.makeGauge(descriptor: Self.webhookName("webhook_pending", unit: "", help: "Outbound events waiting for delivery (all processes).")).set(Double(pending))
        registry.makeGauge(descriptor: Self.webhookName("webhook_dead_lettered", unit: "", help: "Outbound events dead-lettered (all processes); redeliver them from the support console.")).set(Double(dead))
        announce()
    }
}
