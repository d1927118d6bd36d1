import AppStoreVerification
import Hummingbird
import Logging

/// Answers every failure of a console route as an HTML page, never JSON: ``ConsoleError``s with
/// their own status and message, the service's ``APIError``s (a database failure: 503) with
/// theirs, anything else as 500 with the error in the log only.
struct ConsoleErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    let pages: ConsolePages

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as ConsoleError {
            return page(error)
        } catch let error as APIError {
            if error.status.kind == .serverError {
                context.logger.error("console \(RouteLabel.of(context)): \(error.logDetail ?? LogSafeText.escaping(error.description))")
            }
            var response = page(ConsoleError(error.status, error.status.reasonPhrase, error.message))
            response.headers.append(contentsOf: error.headers)
            return response
        } catch let error as HTTPError {
            return page(ConsoleError(error.status, error.status.reasonPhrase, error.status == .notFound ? ConsoleError.notFound.message : error.status.reasonPhrase))
        } catch {
            context.logger.error("console \(RouteLabel.of(context)): unexpected error \(LogSafeText.escaping(String(reflecting: error)))")
            return page(ConsoleError(.internalServerError, "The console failed", "The server failed unexpectedly; the error is in its log."))
        }
    }

    private func page(_ error: ConsoleError) -> Response {
        pages.response(.error, ConsoleView(title: error.heading, page: ConsoleErrorPage(heading: error.heading, message: error.message)),
                       status: error.status)
    }
}

/// The error page's content.
struct ConsoleErrorPage: Sendable {
    let heading: String
    let message: String
}
