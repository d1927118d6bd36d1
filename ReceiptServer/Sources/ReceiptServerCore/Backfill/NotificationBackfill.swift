import AppStoreServerAPI
import AppStoreVerification
import Foundation
import Logging
import ServiceLifecycle

/// Catches up on App Store Server Notifications the server missed: a `Service` in the
/// application's `ServiceGroup` that, at start and every ``BackfillConfiguration/interval``, asks
/// Apple's Get Notification History for the notifications signed since the latest stored one
/// (minus a margin; on a database without notifications, ``BackfillConfiguration/initialWindow``
/// back) until now, reads every page, and stores each one the database lacks (by
/// `notificationUUID`), verified exactly as a POSTed notification (``SignedDataCheck``, nested
/// signed data included) and linked to its customer the same way.
///
/// A failed run (the API refuses the key, answers 5xx past its retries, or the database fails) is
/// logged and counted; what it stored stays, and the next run starts over from the database.
/// Graceful shutdown stops it between two notifications.
struct NotificationBackfill: Service {
    let client: AppStoreServerAPIClient
    let store: ReceiptStore
    let check: SignedDataCheck
    let metrics: ServerMetrics
    let configuration: BackfillConfiguration
    /// The server's clock: the end of each run's range and the time records are stamped with.
    let clock: AppStoreClock
    let logger: Logger
    let onRun: @Sendable (BackfillReport) async -> Void
    /// Answering refund requests, when turned on: a backfilled `CONSUMPTION_REQUEST` gets its
    /// pending answer as a POSTed one does (`RefundRequests/`).
    var refundAnswers: RefundAnswers? = nil

    func run() async {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                let report = await runOnce()
                guard !Task.isCancelled else { return }
                await onRun(report)
                // The timer between runs; graceful shutdown cancels it.
                try? await Task.sleep(for: configuration.interval)
            }
        }
    }

    /// One run: the range, every page, every notification.
    func runOnce() async -> BackfillReport {
        let timer = ContinuousClock()
        let started = timer.now
        let end = clock.now
        var report = BackfillReport(startDate: UnixMilliseconds.of(end), endDate: UnixMilliseconds.of(end))
        do {
            let start = try await startDate(before: end)
            report.startDate = UnixMilliseconds.of(start)
            logger.info("backfill: asking Apple for the notifications signed from \(start) to \(end)")
            let request = NotificationHistoryRequest(startDate: start, endDate: end)
            for try await item in client.notificationHistory(request: request) {
                try Task.checkCancellation()
                report.received += 1
                let result = try await handle(item.notification)
                metrics.recordBackfilledNotification(result: result.rawValue)
                switch result {
                case .stored: report.stored += 1
                case .alreadyStored: report.alreadyStored += 1
                case .refused: report.refused += 1
                }
                if report.received % 100 == 0 {
                    logger.info("backfill: \(report.received) notifications read so far, \(report.stored) stored")
                }
            }
        } catch is CancellationError {
            report.failure = "cancelled (the server is shutting down)"
        } catch {
            report.failure = Self.describe(error)
        }
        let elapsed = timer.now - started
        metrics.recordBackfillRun(failed: report.failure != nil, duration: elapsed, finishedAt: clock.now.timeIntervalSince1970)
        let counts: Logger.Metadata = [
            "received": "\(report.received)", "stored": "\(report.stored)", "already_stored": "\(report.alreadyStored)",
            "refused": "\(report.refused)", "duration_ms": "\(RequestLogMiddleware<ReceiptRequestContext>.milliseconds(elapsed))",
        ]
        if let failure = report.failure {
            logger.error("backfill failed: \(LogSafeText.escaping("\(failure)")). What was stored stays; the next run, in \(configuration.interval), starts over.", metadata: counts)
        } else {
            logger.info("backfill done", metadata: counts)
        }
        return report
    }

    /// What became of one notification.
    enum Outcome: String {
        case stored, alreadyStored, refused
    }

    private func handle(_ result: VerificationResult<ResponseBodyV2DecodedPayload>) async throws -> Outcome {
        if let uuid = result.unsafePayloadValue.notificationUUID, try await store.hasNotification(uuid: uuid) {
            return .alreadyStored
        }
        let accepted: AcceptedNotification
        do {
            accepted = try check.notification(result, kind: .backfilledNotification)
        } catch {
            logger.warning("backfill: notification \(LogSafeText.escaping(result.unsafePayloadValue.notificationUUID ?? "?")) refused, not stored: \(error.message)")
            return .refused
        }
        let receivedAt = UnixMilliseconds.of(clock.now)
        let refundRequest = refundAnswers?.pendingRequest(for: accepted, receivedAt: receivedAt)
        let outcome = try await store.storeNotification(accepted.row, appAccountToken: accepted.customer, refundRequest: refundRequest, receivedAt: receivedAt)
        if refundRequest != nil { refundAnswers?.answerDue() }
        return outcome.isNew ? .stored : .alreadyStored
    }

    /// The latest stored notification's `signedDate` minus the margin, or the initial window back
    /// from `end`; never further back than Apple keeps (180 days) nor after `end`.
    private func startDate(before end: Date) async throws -> Date {
        let latest = try await store.lastNotificationSignedDate()
        let wanted = latest.map { UnixMilliseconds.date($0).addingTimeInterval(-Self.seconds(configuration.margin)) }
            ?? end.addingTimeInterval(-Self.seconds(configuration.initialWindow))
        let earliest = end.addingTimeInterval(-Self.seconds(BackfillConfiguration.maximumWindow) + 60)
        if wanted < earliest {
            logger.notice("backfill: Apple keeps 180 days of notifications; starting at \(earliest) instead of \(wanted)")
        }
        return min(max(wanted, earliest), end.addingTimeInterval(-1))
    }

    private static func seconds(_ duration: Duration) -> TimeInterval {
        let (seconds, attoseconds) = duration.components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }

    private static func describe(_ error: any Error) -> String {
        if let error = error as? AppStoreServerAPIError { return "the App Store Server API failed: \(error)" }
        if let error = error as? StorageError { return error.description }
        return String(describing: error)
    }
}
