import AppStoreServerAPI
import AppStoreVerification
import Foundation
import Logging
import ServiceLifecycle

/// Sends the answers to refund requests (`CONSUMPTION_REQUEST`): a `Service` in the server's
/// `ServiceGroup` that leases due rows of `refund_requests`, builds each answer from the stored
/// consent and facts and what the server knows, checks it against Apple's rules and sends Send
/// Consumption Information v2.
///
/// - No consent from the customer: nothing is sent; recorded as skipped (`noConsent`).
/// - No delivery status from the backend, and the app never sent the transaction: nothing is sent
///   (the server cannot say it was delivered); recorded as skipped (`noFacts`).
/// - A 429, a 5xx, a network failure or a refused token: tried again after a backoff that doubles,
///   never before Apple's `Retry-After`; past Apple's 12 hours after the request's `signedDate`
///   (the server's `now`), recorded as missed and not sent.
/// - Another refusal from Apple, or an answer that breaks Apple's rules: recorded as failed.
///
/// Woken at once when this process stores a refund request, and every ``RefundAnswerConfiguration/pollInterval``
/// for those of other processes. On graceful shutdown an answer in flight is abandoned and its
/// lease released (it is sent after the restart).
struct RefundAnswerSender: Service {
    let client: AppStoreServerAPIClient
    let backend: any StoreBackend
    let answers: RefundAnswers
    let metrics: ServerMetrics
    /// The server's clock: Apple's 12 hours are judged by it.
    let clock: AppStoreClock
    let logger: Logger

    private var configuration: RefundAnswerConfiguration { answers.configuration }

    /// The wall clock leases and attempt times use, in milliseconds since 1970.
    private static func wallClock() -> Int64 { UnixMilliseconds.of(Date()) }

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                let wait = await sendDue()
                await answers.wakeup.wait(upTo: wait)
            }
        }
    }

    /// Sends every answer due; returns how long to wait before looking again.
    private func sendDue() async -> Duration {
        do {
            while !Task.isCancelled {
                let wall = Self.wallClock()
                let leased = try await backend.leaseDueRefundRequests(now: wall, leaseUntil: wall + configuration.leaseDuration.milliseconds, limit: 16)
                for request in leased {
                    if Task.isCancelled {
                        try? await backend.releaseRefundRequest(id: request.id)
                        continue
                    }
                    await answer(request)
                }
                if leased.count < 16 { break }
            }
            guard let due = try await backend.nextRefundRequestDue() else { return configuration.pollInterval }
            let until = Duration.milliseconds(max(0, due - Self.wallClock()) + 1)
            return min(until, configuration.pollInterval)
        } catch {
            logger.warning("refund requests: the database failed; trying again later: \(LogSafeText.escaping(String(describing: error)))")
            return configuration.pollInterval
        }
    }

    /// Answers one leased request, or records why not.
    private func answer(_ request: LeasedRefundRequest) async {
        let deadline = request.signedDate + RefundAnswerConfiguration.answerWindow.milliseconds
        let current = UnixMilliseconds.of(clock.now)
        do {
            if current >= deadline {
                try await finish(request, RefundRequestEnd(state: "missed", reason: "not answered within 12 hours of the request's signedDate",
                                                           sentBody: nil, sentAt: nil, appleAnswer: nil), metric: "missed")
                return
            }
            let inputs = try await backend.refundAnswerInputs(for: request)
            let built: ConsumptionRequest
            switch build(request, inputs) {
            case .skip(let reason):
                try await finish(request, RefundRequestEnd(state: "skipped", reason: reason, sentBody: nil, sentAt: nil, appleAnswer: nil),
                                 metric: reason == "noConsent" ? "skippedNoConsent" : "skippedNoFacts")
                return
            case .invalid(let message):
                try await finish(request, RefundRequestEnd(state: "failed", reason: message, sentBody: nil, sentAt: nil, appleAnswer: nil), metric: "failed")
                return
            case .send(let consumption):
                built = consumption
            }
            let body = Self.json(built)
            let sent: Result<Void, AppStoreServerAPIError>
            do {
                try await client.sendConsumptionInformation(transactionId: request.transactionId, request: built,
                                                            productType: request.productType.map(ProductType.init(rawValue:)))
                sent = .success(())
            } catch {
                sent = .failure(error)
            }
            switch sent {
            case .success:
                let sentAt = UnixMilliseconds.of(clock.now)
                try await finish(request, RefundRequestEnd(state: "answered", reason: nil, sentBody: body, sentAt: sentAt, appleAnswer: "202 Accepted"),
                                 metric: "answered", timeToAnswer: .milliseconds(max(0, sentAt - request.signedDate)))
                logger.info("refund request answered", metadata: ["attempts": "\(request.attempts + 1)"])
            case .failure(let error):
                if error.code == .cancelled || Task.isCancelled {
                    try await backend.releaseRefundRequest(id: request.id)
                    return
                }
                try await failed(request, error, body: body, deadline: deadline)
            }
        } catch {
            // The database failed: the lease ends on its own and the request is tried again.
            logger.warning("refund requests: the database failed while answering; trying again after the lease: \(LogSafeText.escaping(String(describing: error)))")
        }
    }

    /// What to do with a request.
    enum Decision {
        case send(ConsumptionRequest)
        case skip(String)
        case invalid(String)
    }

    /// The answer built from the stored consent and facts, the defaults and what the server knows.
    func build(_ request: LeasedRefundRequest, _ inputs: RefundAnswerInputs) -> Decision {
        guard inputs.consented == true else { return .skip("noConsent") }
        let facts = inputs.facts
        guard let delivery = facts?.deliveryStatus.map(DeliveryStatus.init(rawValue:)) ?? (inputs.appSentTransaction ? .delivered : nil) else {
            return .skip("noFacts")
        }
        let productType = request.productType.map(ProductType.init(rawValue:))
        // Apple computes an auto-renewable subscription's share from the time elapsed.
        let percentage = productType == .autoRenewableSubscription ? nil : facts?.consumptionPercentage.map { Int32(clamping: $0) }
        let ownPreference = facts?.refundPreference.map(RefundPreference.init(rawValue:))
        var consumption = ConsumptionRequest(
            customerConsented: true, sampleContentProvided: facts?.sampleContentProvided ?? configuration.sampleContentProvided,
            deliveryStatus: delivery, consumptionPercentage: percentage, refundPreference: ownPreference ?? configuration.refundPreference)
        do {
            try consumption.check(productType: productType)
        } catch {
            // The server-wide default does not fit this transaction (GRANT_PRORATED without a
            // percentage): send the facts without a preference rather than nothing.
            guard ownPreference == nil, consumption.refundPreference != nil else { return .invalid(error.message) }
            consumption.refundPreference = nil
            do {
                try consumption.check(productType: productType)
            } catch {
                return .invalid(error.message)
            }
        }
        return .send(consumption)
    }

    /// A failed attempt: tried again (honouring `Retry-After`) while Apple's 12 hours allow it,
    /// else recorded as missed; a refusal that retrying cannot change is recorded as failed.
    private func failed(_ request: LeasedRefundRequest, _ error: AppStoreServerAPIError, body: String, deadline: Int64) async throws {
        let answer = Self.describe(error)
        guard error.isRetryable || error.code == .unauthorized else {
            try await finish(request, RefundRequestEnd(state: "failed", reason: "Apple refused the answer", sentBody: body, sentAt: nil, appleAnswer: answer),
                             metric: "failed")
            logger.warning("refund request: Apple refused the answer: \(LogSafeText.escaping(answer))")
            return
        }
        let attempts = request.attempts + 1
        let wall = Self.wallClock()
        let exponent = Int64(min(attempts - 1, 20))
        let backoff = min(configuration.initialBackoff.milliseconds << exponent, configuration.maximumBackoff.milliseconds)
        var next = wall + max(0, backoff)
        if let retryAfter = error.retryAfterDate { next = max(next, UnixMilliseconds.of(retryAfter)) }
        // Apple's 12 hours are on the server's clock: the wait must end before they do.
        if UnixMilliseconds.of(clock.now) + (next - wall) >= deadline {
            try await finish(request, RefundRequestEnd(state: "missed", reason: "the next attempt would come after Apple's 12 hours",
                                                       sentBody: nil, sentAt: nil, appleAnswer: answer), metric: "missed")
            return
        }
        metrics.recordRefundAnswerRetry()
        try await backend.retryRefundRequest(id: request.id, attempts: attempts, nextAttemptAt: next, appleAnswer: answer)
        logger.notice("refund request: attempt \(attempts) failed (\(LogSafeText.escaping(answer))); trying again in \(max(0, next - wall)) ms")
    }

    private func finish(_ request: LeasedRefundRequest, _ end: RefundRequestEnd, metric: String, timeToAnswer: Duration? = nil) async throws {
        try await backend.finishRefundRequest(id: request.id, end, at: UnixMilliseconds.of(clock.now))
        metrics.recordRefundRequest(result: metric, timeToAnswer: timeToAnswer)
        if end.state != "answered" {
            logger.info("refund request \(end.state)", metadata: ["reason": "\(LogSafeText.escaping(end.reason ?? ""))"])
        }
    }

    /// Apple's answer in a line: the status, Apple's code and message, or the failure.
    static func describe(_ error: AppStoreServerAPIError) -> String {
        var parts: [String] = []
        if let status = error.httpStatusCode { parts.append(String(status)) }
        if let code = error.apiError { parts.append("error \(code.rawValue)") }
        parts.append(error.apiErrorMessage ?? error.message)
        return String(parts.joined(separator: " ").prefix(500))
    }

    /// The request as sent (sorted keys).
    static func json(_ request: ConsumptionRequest) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(request)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
