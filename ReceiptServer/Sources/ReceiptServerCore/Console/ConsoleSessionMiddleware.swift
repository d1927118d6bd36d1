import Foundation
import Hummingbird

/// Closes the console routes behind it to anyone without a live session: a request without one is
/// redirected to the sign-in page (`303`). With one, the route runs with the session as
/// ``ConsoleSession/current``.
///
/// Every console route is behind it except the sign-in page and the static files, so a route
/// added to the console is closed unless it is added to the open group on purpose.
struct ConsoleSessionMiddleware<Context: RequestContext>: RouterMiddleware {
    let sessions: ConsoleSessionStore

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let cookie = request.cookies[ConsoleCookies.session]?.value, !cookie.isEmpty,
              let session = sessions.session(forCookie: cookie, now: Date())
        else {
            return ConsoleResponses.redirect(to: ConsolePaths.signIn)
        }
        return try await ConsoleSession.$current.withValue(session) {
            try await next(request, context)
        }
    }
}
