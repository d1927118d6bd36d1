import Hummingbird

/// Counts every answered request by method, route pattern and status, and records its duration
/// (``ServerMetrics/recordRequest(method:route:status:duration:)``).
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let clock = ContinuousClock()
        let start = clock.now
        let response = try await next(request, context)
        metrics.recordRequest(method: "\(request.method)", route: RouteLabel.of(context), status: Int(response.status.code), duration: clock.now - start)
        return response
    }
}
