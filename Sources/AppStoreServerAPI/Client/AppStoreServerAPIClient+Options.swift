extension AppStoreServerAPIClient {
    /// Timeouts, retries and token lifetime. The defaults suit a server calling Apple in a request
    /// handler.
    public struct Options: Sendable, Hashable {
        /// The longest one call may take, retries and waits between them included; the per-page
        /// budget of a paginated sequence. Default 60 seconds.
        public var deadline: Duration
        /// The longest one HTTP attempt may take (connection, request and whole response), within
        /// ``deadline``. Default 30 seconds, as Apple's libraries.
        public var requestTimeout: Duration
        /// How many attempts one call makes at most when Apple answers 429 or 5xx, or the
        /// connection fails. Default 4 (one try and three retries).
        public var maximumAttempts: Int
        /// The wait before the first retry when Apple gives no `Retry-After`; doubled for each
        /// further retry, up to ``maximumBackoff``. Default 1 second.
        public var initialBackoff: Duration
        /// The longest wait between two attempts without `Retry-After`. Default 16 seconds.
        public var maximumBackoff: Duration
        /// How long a bearer token is valid (its `exp` minus `iat`), at most 60 minutes as Apple
        /// allows. Default 30 minutes.
        public var tokenLifetime: Duration
        /// A token is signed anew when less than this is left before it expires. Default 5 minutes.
        public var tokenRenewalMargin: Duration
        /// The largest response body read, in bytes. Default 16 MiB.
        public var maximumResponseBodySize: Int
        /// The most pages one paginated sequence requests (transaction history, notification
        /// history, refund history, ...); reaching it ends the sequence with
        /// ``AppStoreServerAPIError/Code/paginationLimitExceeded``. Default 1,000 (20,000 history
        /// items at Apple's 20 a page).
        public var maximumPages: Int
        /// The longest one paginated sequence may take from its first request, every page, retry
        /// and wait included (each page also has its own ``deadline``); passing it ends the
        /// sequence with ``AppStoreServerAPIError/Code/paginationLimitExceeded``. Default 10 minutes.
        public var paginationDeadline: Duration
        /// How requests keep under Apple's published per-endpoint rate limits. Default
        /// ``Pacing/published`` (Apple's rates over an hour); ``Pacing/off`` turns it off.
        public var pacing: Pacing

        /// Options with the defaults, or the values given.
        ///
        /// - Parameters:
        ///   - deadline: the budget of one call, retries included.
        ///   - requestTimeout: the budget of one HTTP attempt.
        ///   - maximumAttempts: attempts per call on 429, 5xx and connection failures (at least 1).
        ///   - initialBackoff: the first wait between attempts without `Retry-After`.
        ///   - maximumBackoff: the longest wait between attempts without `Retry-After`.
        ///   - tokenLifetime: a bearer token's validity (clamped to 60 minutes).
        ///   - tokenRenewalMargin: how long before expiry a token is replaced.
        ///   - maximumResponseBodySize: the largest body read.
        ///   - maximumPages: the most pages one paginated sequence requests (at least 1).
        ///   - paginationDeadline: the budget of one paginated sequence.
        ///   - pacing: how requests keep under Apple's published rate limits.
        public init(
            deadline: Duration = .seconds(60),
            requestTimeout: Duration = .seconds(30),
            maximumAttempts: Int = 4,
            initialBackoff: Duration = .seconds(1),
            maximumBackoff: Duration = .seconds(16),
            tokenLifetime: Duration = .seconds(30 * 60),
            tokenRenewalMargin: Duration = .seconds(5 * 60),
            maximumResponseBodySize: Int = 16 << 20,
            maximumPages: Int = 1_000,
            paginationDeadline: Duration = .seconds(600),
            pacing: Pacing = .published
        ) {
            self.deadline = deadline
            self.requestTimeout = requestTimeout
            self.maximumAttempts = maximumAttempts
            self.initialBackoff = initialBackoff
            self.maximumBackoff = maximumBackoff
            self.tokenLifetime = tokenLifetime
            self.tokenRenewalMargin = tokenRenewalMargin
            self.maximumResponseBodySize = maximumResponseBodySize
            self.maximumPages = maximumPages
            self.paginationDeadline = paginationDeadline
            self.pacing = pacing
        }
    }
}
