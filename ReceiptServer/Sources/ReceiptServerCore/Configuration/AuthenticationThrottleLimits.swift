/// How wrong tokens slow a client address down (``AuthenticationThrottle``): a bearer token that is
/// not the server's, or a console sign-in with the wrong token.
///
/// An address may get the token wrong ``freeFailures`` times; each failure after that makes it wait
/// twice as long as the one before, from ``firstDelay`` up to ``maximumDelay``, before any token
/// it presents is looked at again (answered 429 with `Retry-After` meanwhile, the right token
/// too). Other addresses are not affected; a right token resets the address; an address that
/// stops guessing is forgotten ``forgetAfter`` after its last failure.
public struct AuthenticationThrottleLimits: Sendable, Hashable {
    /// Wrong tokens an address may present before it has to wait.
    public var freeFailures: Int
    /// The wait after the first failure past ``freeFailures``.
    public var firstDelay: Duration
    /// The longest wait.
    public var maximumDelay: Duration
    /// How long after its last failure an address starts afresh.
    public var forgetAfter: Duration
    /// The most addresses remembered at once (the oldest are forgotten first).
    public var maximumAddresses: Int

    /// Creates limits; by default 5 free failures, then 1 s, 2 s, 4 s, ... up to 5 minutes.
    ///
    /// - Parameters:
    ///   - freeFailures: wrong tokens before the first wait.
    ///   - firstDelay: the first wait.
    ///   - maximumDelay: the longest wait.
    ///   - forgetAfter: quiet time after which an address starts afresh.
    ///   - maximumAddresses: addresses remembered at once.
    public init(freeFailures: Int = 5, firstDelay: Duration = .seconds(1), maximumDelay: Duration = .seconds(300),
                forgetAfter: Duration = .seconds(900), maximumAddresses: Int = 100_000) {
        self.freeFailures = freeFailures
        self.firstDelay = firstDelay
        self.maximumDelay = maximumDelay
        self.forgetAfter = forgetAfter
        self.maximumAddresses = maximumAddresses
    }
}
