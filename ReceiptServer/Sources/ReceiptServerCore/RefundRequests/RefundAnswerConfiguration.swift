import AppStoreServerAPI
import Foundation

/// How the server answers Apple's `CONSUMPTION_REQUEST` notifications (a customer asked Apple for a
/// refund; Apple gives the developer 12 hours to send consumption information, which it weighs in
/// its decision). Answering needs App Store Server API credentials (``ReconcileConfiguration``);
/// give this configuration to ``ReceiptServer`` to turn it on.
///
/// The defaults apply where your backend stored no fact for the transaction
/// (`PUT /transactions/{transactionId}/consumption`); `Docs/RefundRequests.md` says what each one
/// tells Apple.
public struct RefundAnswerConfiguration: Sendable {
    /// The outcome to ask Apple for when the backend named none for the transaction: `nil` sends no
    /// preference (Apple decides on the facts alone), ``RefundPreference/decline`` asks Apple to
    /// decline the refund, ``RefundPreference/grantFull`` to grant it in full,
    /// ``RefundPreference/grantProrated`` to grant the share not consumed (sent only with a
    /// consumption percentage, or for an auto-renewable subscription, where Apple computes it).
    public var refundPreference: RefundPreference?
    /// Whether the app gave a free sample, trial or description of the content before purchase,
    /// when the backend did not say for the transaction.
    public var sampleContentProvided: Bool
    /// How long one process holds an answer it is sending before another process may take it over
    /// (the process may have died). Longer than one attempt's request timeout.
    public var leaseDuration: Duration
    /// How often the sender looks for answers other processes' notifications made due (it is woken
    /// at once by this process's own).
    public var pollInterval: Duration
    /// The wait after a first failed attempt; it doubles with each failure, up to
    /// ``maximumBackoff``, and is never shorter than Apple's `Retry-After`.
    public var initialBackoff: Duration
    /// The longest wait between two attempts.
    public var maximumBackoff: Duration

    /// Apple's deadline: an answer later than 12 hours after the request's `signedDate` is not
    /// considered, so it is recorded as missed instead of sent.
    public static let answerWindow: Duration = .seconds(12 * 3600)

    /// Creates the configuration.
    ///
    /// - Parameters:
    ///   - refundPreference: the preferred outcome when the backend named none; none by default.
    ///   - sampleContentProvided: whether a sample was provided, when the backend did not say.
    ///   - leaseDuration: how long a process holds an answer it is sending (2 minutes).
    ///   - pollInterval: how often to look for answers due from other processes (30 s).
    ///   - initialBackoff: the first wait after a failure (30 s).
    ///   - maximumBackoff: the longest wait between attempts (30 minutes).
    public init(refundPreference: RefundPreference? = nil, sampleContentProvided: Bool = false, leaseDuration: Duration = .seconds(120),
                pollInterval: Duration = .seconds(30), initialBackoff: Duration = .seconds(30), maximumBackoff: Duration = .seconds(1800)) {
        self.refundPreference = refundPreference
        self.sampleContentProvided = sampleContentProvided
        self.leaseDuration = leaseDuration
        self.pollInterval = pollInterval
        self.initialBackoff = initialBackoff
        self.maximumBackoff = maximumBackoff
    }
}

extension Duration {
    /// Whole milliseconds (rounded down).
    var milliseconds: Int64 {
        components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    }
}
