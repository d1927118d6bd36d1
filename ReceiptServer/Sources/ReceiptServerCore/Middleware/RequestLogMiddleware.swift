import Hummingbird
import Logging

/// Logs one line per request: request ID, method, route pattern, status and duration.
///
/// The route is the pattern (`/customers/{appAccountToken}/entitlements`), never the path, and
/// neither headers nor bodies are logged: no bearer token, no JWS, no customer ID reaches the log.
/// Successes log at `info`, client errors at `notice`, server errors at `error` (the error's own
/// line comes from ``JSONErrorMiddleware``).
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let clock = ContinuousClock()
        let start = clock.now
        let response = try await next(request, context)
        let elapsed = clock.now - start
        let status = Int(response.status.code)
        let level: Logger.Level = status >= 500 ? .error : status >= 400 ? .notice : .info
        context.logger.log(level: level, "request", metadata: [
            "method": "\(request.method)",
            "route": "\(RouteLabel.of(context))",
            "status": "\(status)",
            "duration_ms": "\(Self.milliseconds(elapsed))",
        ])
        return response
    }

    /// `duration` in milliseconds with three decimals.
    static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let microseconds = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
        let whole = microseconds / 1000
        let fraction = microseconds % 1000
        return "\(whole).\(String(repeating: "0", count: 3 - String(fraction).count))\(fraction)"
    }
}

/// The route label of a request in logs and metrics: the matched route pattern, or `NotFound`
/// (Hummingbird's own label for a request no route matched).
enum RouteLabel {
    static func of(_ context: some RequestContext) -> String {
        context.endpointPath ?? "NotFound"
    }
}
