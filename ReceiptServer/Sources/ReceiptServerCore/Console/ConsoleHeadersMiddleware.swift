import Hummingbird

/// Puts the security headers (``ConsoleHeaders/security``) on every console response, and
/// `Cache-Control: no-store` on those that set no cache policy of their own (pages hold customer
/// data).
struct ConsoleHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        for field in ConsoleHeaders.security {
            response.headers[field.name] = field.value
        }
        if response.headers[.cacheControl] == nil {
            response.headers[.cacheControl] = ConsoleHeaders.noStore
        }
        return response
    }
}
