import AppStoreServerAPI
import ArgumentParser
import ReceiptServerCore

/// Answering refund requests (`CONSUMPTION_REQUEST`), from the environment (see
/// `Docs/RefundRequests.md`):
///
/// - `RECEIPT_SERVER_ANSWER_CONSUMPTION_REQUESTS=1` turns it on (it needs the API credentials);
/// - `RECEIPT_SERVER_REFUND_PREFERENCE`: `none` (the default), `DECLINE`, `GRANT_FULL` or
///   `GRANT_PRORATED`, sent when the backend named none for the transaction;
/// - `RECEIPT_SERVER_SAMPLE_CONTENT_PROVIDED=1` when the app gives a sample or trial before purchase;
/// - `RECEIPT_SERVER_REFUND_ANSWER_LEASE_SECONDS`: how long a process holds an answer it sends (120).
enum RefundAnswerOptions {
    /// The configuration, or `nil` when answering is off.
    static func configuration(environment: [String: String]) throws -> RefundAnswerConfiguration? {
        guard try flag("RECEIPT_SERVER_ANSWER_CONSUMPTION_REQUESTS", environment) else { return nil }
        var configuration = RefundAnswerConfiguration()
        switch environment["RECEIPT_SERVER_REFUND_PREFERENCE"].map({ $0.uppercased() }) {
        case nil, "", "NONE": configuration.refundPreference = nil
        case "DECLINE": configuration.refundPreference = .decline
        case "GRANT_FULL": configuration.refundPreference = .grantFull
        case "GRANT_PRORATED": configuration.refundPreference = .grantProrated
        case let other?:
            throw ValidationError("RECEIPT_SERVER_REFUND_PREFERENCE=\(other): use none, DECLINE, GRANT_FULL or GRANT_PRORATED.")
        }
        configuration.sampleContentProvided = try flag("RECEIPT_SERVER_SAMPLE_CONTENT_PROVIDED", environment)
        if let text = environment["RECEIPT_SERVER_REFUND_ANSWER_LEASE_SECONDS"], !text.isEmpty {
            guard let seconds = Double(text), seconds.isFinite, seconds >= 1, seconds <= 3600 else {
                throw ValidationError("RECEIPT_SERVER_REFUND_ANSWER_LEASE_SECONDS=\(text): give seconds from 1 to 3600.")
            }
            configuration.leaseDuration = .milliseconds(Int64(seconds * 1000))
        }
        return configuration
    }

    private static func flag(_ name: String, _ environment: [String: String]) throws -> Bool {
        switch environment[name]?.lowercased() {
        case nil, "", "0", "false", "no": return false
        case "1", "true", "yes": return true
        case let other?: throw ValidationError("\(name)=\(other) is neither 1 nor 0.")
        }
    }
}
