import AppStoreVerification
import Hummingbird
import Logging

/// Answers every failure as an ``APIError`` JSON body: the routes' own errors, Hummingbird's
/// (unknown route, wrong method) and anything unexpected (500, logged, with no internals in the body).
///
/// A server error's log line names the route pattern, never the path (a path carries customer
/// IDs), and its text is escaped with `LogSafeText`.
struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            if error.status.kind == .serverError {
                context.logger.error("\(request.method) \(RouteLabel.of(context)): \(error.logDetail ?? LogSafeText.escaping(error.description))")
            }
            return try error.response(from: request, context: context)
        } catch let error as HTTPError {
            let code = error.status == .notFound ? "notFound" : error.status == .methodNotAllowed ? "methodNotAllowed" : "httpError"
            let message = error.status == .notFound
                ? "No route \(request.method) \(request.uri.path). Routes: POST /transactions, POST /notifications, GET /customers/{appAccountToken}/entitlements, POST /transactions/{transactionId}/reconcile, GET /health, GET /metrics."
                : error.body ?? error.status.reasonPhrase
            return try APIError(error.status, code: code, message, headers: error.headers).response(from: request, context: context)
        } catch {
            context.logger.error("\(request.method) \(RouteLabel.of(context)): unexpected error \(LogSafeText.escaping(String(reflecting: error)))")
            return try APIError(.internalServerError, code: "internal", "The server failed unexpectedly; the error is in its log.")
                .response(from: request, context: context)
        }
    }
}
