import Hummingbird

/// Establishes the ``Caller`` of every request: ``Caller/backend`` for `Authorization: Bearer
/// <token>` naming the configured token (compared in constant time), ``Caller/anonymous`` for a
/// request without an `Authorization` header. A request that presents anything else is answered
/// 401 `unauthorized` (JSON, with `WWW-Authenticate: Bearer`), on every route, so that a backend
/// with a wrong token finds out at once instead of being answered as a stranger.
///
/// Wrong tokens slow the client address down (``AuthenticationThrottle``): past the free failures,
/// any token it presents is answered 429 `tooManyAttempts` with `Retry-After` until its wait is
/// over, the right one too, while other addresses are served as before. A request that presents
/// the metrics token (``MetricsExposure/token``) stays anonymous, and may read `/metrics`.
///
/// On a server without a token (``AccessControl/allowUnauthenticated``) every caller is anonymous.
/// Which routes need ``Caller/backend`` is ``RequireBackendMiddleware``'s business. To use your own
/// authentication instead, put your middleware in this one's place and set `context.caller`
/// (README, "Access").
struct BearerTokenMiddleware: RouterMiddleware {
    typealias Context = ReceiptRequestContext
    private let expected: [UInt8]?
    private let metricsToken: [UInt8]?
    private let throttle: AuthenticationThrottle
    private let metrics: ServerMetrics

    /// - Parameters:
    ///   - token: the token callers must present; `nil` when the server has none.
    ///   - metricsToken: the token that opens `/metrics` alone, if any.
    ///   - throttle: where wrong tokens are counted per client address.
    ///   - metrics: where throttled attempts are counted.
    init(token: String?, metricsToken: String? = nil, throttle: AuthenticationThrottle, metrics: ServerMetrics) {
        self.expected = token.map { Array($0.utf8) }
        self.metricsToken = metricsToken.map { Array($0.utf8) }
        self.throttle = throttle
        self.metrics = metrics
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard expected != nil || metricsToken != nil, let header = request.headers[.authorization] else {
            return try await next(request, context)
        }
        if let wait = throttle.wait(for: context.clientKey) {
            metrics.recordAuthenticationThrottled("bearer")
            throw Self.tooManyAttempts(wait)
        }
        let scheme = "bearer "
        guard header.count > scheme.count, header.prefix(scheme.count).lowercased() == scheme else {
            throw Self.unauthorized("The Authorization header is not a bearer token: send Authorization: Bearer <token>, or no Authorization header at all.")
        }
        let presented = Array(header.dropFirst(scheme.count).utf8)
        var context = context
        if let expected, Self.constantTimeEquals(presented, expected) {
            context.caller = .backend
        } else if let metricsToken, Self.constantTimeEquals(presented, metricsToken) {
            context.presentedMetricsToken = true
        } else {
            throttle.recordFailure(context.clientKey)
            throw Self.unauthorized("The bearer token is not the server's access token (RECEIPT_SERVER_ACCESS_TOKEN).")
        }
        throttle.recordSuccess(context.clientKey)
        return try await next(request, context)
    }

    /// 429 `tooManyAttempts` with `Retry-After`: the client address presented too many wrong tokens.
    static func tooManyAttempts(_ wait: Duration) -> APIError {
        let seconds = AuthenticationThrottle.retryAfterSeconds(wait)
        return APIError(.tooManyRequests, code: "tooManyAttempts",
                        "Too many wrong tokens came from this address; no token from it is checked for \(seconds) s. Retry after that with the server's access token (RECEIPT_SERVER_ACCESS_TOKEN).",
                        headers: [.retryAfter: String(seconds)])
    }

    /// Whether `presented` equals `expected`, in time that depends only on `expected`'s length.
    static func constantTimeEquals(_ presented: [UInt8], _ expected: [UInt8]) -> Bool {
        var difference = UInt8(truncatingIfNeeded: presented.count ^ expected.count) | (presented.count == expected.count ? 0 : 1)
        for index in expected.indices {
            let byte = index < presented.count ? presented[index] : 0
            difference |= byte ^ expected[index]
        }
        return difference == 0
    }

    static func unauthorized(_ message: String) -> APIError {
        APIError(.unauthorized, code: "unauthorized", message, headers: [.wwwAuthenticate: "Bearer"])
    }
}
