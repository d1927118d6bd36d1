extension AppStoreServerAPIClient {
    /// How the client keeps under Apple's published rate limits, per endpoint, before Apple has to
    /// answer 429.
    ///
    /// Apple's *Identifying rate limits* gives each endpoint a number of requests per second,
    /// "enforced on an hourly basis", per app; the sandbox allows 10 % of it:
    ///
    /// | endpoint | per second (production) |
    /// | --- | --- |
    /// | Get Transaction Info, Get Transaction History (v1, v2), Get All Subscription Statuses, Send Consumption Information (v1, v2), Get Notification History, Finish Transaction, Get App Transaction Info | 50 |
    /// | Extend a Subscription Renewal Date, Set App Account Token | 20 |
    /// | Look Up Order ID, Get Refund History (v1, v2) | 10 |
    /// | Extend Subscription Renewal Dates for All Active Subscribers, Request a Test Notification, Get Test Notification Status | 1 |
    ///
    /// Each endpoint gets a budget of its rate × ``scale`` × ``window`` (an hour by default:
    /// 180,000 Get Transaction Info requests in production, 18,000 in the sandbox). A request goes
    /// at once while fewer than that many went to its endpoint in the last ``window``, so a burst
    /// within the budget is never slowed; past it, the request waits (within the call's
    /// ``Options/deadline``) until the oldest one leaves the window. Every task using one client
    /// shares its budgets, retries included. Endpoints Apple's table does not list are not paced.
    ///
    /// The sandbox is known from the client's environment, or, for a client given a base URL, from
    /// its verifier's environment. Several processes of one app each keep their own budgets: give
    /// each a share with ``scale`` (0.25 for four processes).
    public struct Pacing: Sendable, Hashable {
        /// The share of Apple's published rate used: 1 (the default) for all of it, 0.5 for half;
        /// 0 or less turns pacing off.
        public var scale: Double
        /// The period the budget is counted over. Default one hour, as Apple enforces its limits.
        public var window: Duration

        /// Pacing at `scale` of Apple's published rates, counted over `window`.
        ///
        /// - Parameters:
        ///   - scale: the share of Apple's published rate used (0 or less: off).
        ///   - window: the period budgets are counted over.
        public init(scale: Double = 1, window: Duration = .seconds(3600)) {
            self.scale = scale
            self.window = window
        }

        /// Apple's published rates over an hour: the default.
        public static let published = Pacing()

        /// No pacing: every request goes at once, and Apple's 429 answers (retried after their
        /// `Retry-After`) are the only limit.
        public static let off = Pacing(scale: 0)

        /// Whether requests are paced at all.
        var isOn: Bool { scale > 0 && scale.isFinite && window > .zero }
    }
}
