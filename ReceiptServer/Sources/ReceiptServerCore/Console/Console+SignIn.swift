import Foundation
import Hummingbird

/// Signing in and out.
extension Console {
    /// `GET /console/sign-in`: the form (or, with a live session, the console). Every rendering
    /// sets a new sign-in cookie whose value the form echoes.
    func signInPage(_ request: Request, error: String? = nil, status: HTTPResponse.Status = .ok) -> Response {
        if error == nil, let cookie = request.cookies[ConsoleCookies.session]?.value, !cookie.isEmpty,
           sessions.session(forCookie: cookie, now: Date()) != nil {
            return ConsoleResponses.redirect(to: ConsolePaths.home)
        }
        let formToken = ConsoleRandom.token()
        var response = pages.response(.signIn, ConsoleView(title: "Sign in", page: ConsoleSignInPage(error: error, signInToken: formToken)), status: status)
        response.setCookie(ConsoleCookies.signIn(formToken, secure: ConsoleCookies.isTLS(request)))
        return response
    }

    /// `POST /console/sign-in`: the access token (constant-time comparison) gives a new session.
    /// The form must come from this site (``ConsoleCSRF``) and echo its sign-in cookie. Wrong tokens
    /// slow the client address down (``AuthenticationThrottle``): while it must wait, every
    /// attempt from it is answered 429 with `Retry-After`, unchecked.
    func signIn(_ request: Request, context: some RequestContext & ClientAddressContext) async throws -> Response {
        try ConsoleCSRF.checkSameOrigin(request)
        if let wait = throttle.wait(for: context.clientKey) {
            server.metrics.recordAuthenticationThrottled("console")
            context.logger.notice("console sign-in refused: too many wrong tokens from this address")
            let seconds = AuthenticationThrottle.retryAfterSeconds(wait)
            var response = signInPage(request, error: "Too many wrong tokens came from this address. Try again in \(seconds) seconds.", status: .tooManyRequests)
            response.headers[.retryAfter] = String(seconds)
            return response
        }
        var request = request
        let form = try await ConsoleForm.decode(ConsoleSignInForm.self, from: &request)
        guard let cookieToken = request.cookies[ConsoleCookies.signIn]?.value, !cookieToken.isEmpty,
              let formToken = form.signInToken, ConsoleRandom.constantTimeEquals(formToken, cookieToken)
        else {
            context.logger.notice("console sign-in refused: the form does not match its sign-in cookie")
            return signInPage(request, error: "The sign-in form expired or was not sent by this page. Try again.", status: .forbidden)
        }
        guard let token = form.token, ConsoleRandom.constantTimeEquals(token, accessToken) else {
            throttle.recordFailure(context.clientKey)
            context.logger.notice("console sign-in refused: not the access token")
            return signInPage(request, error: "That is not the server's access token.", status: .forbidden)
        }
        // A new session every time: a session identifier planted before sign-in never becomes valid.
        if let old = request.cookies[ConsoleCookies.session]?.value, let session = sessions.session(forCookie: old, now: Date()) {
            sessions.end(session)
        }
        throttle.recordSuccess(context.clientKey)
        let (cookieValue, _) = sessions.create(now: Date())
        context.logger.info("console sign-in")
        let secure = ConsoleCookies.isTLS(request)
        var response = ConsoleResponses.redirect(to: ConsolePaths.home)
        response.setCookie(ConsoleCookies.session(cookieValue, maxAge: Int(sessions.limits.lifetime), secure: secure))
        response.setCookie(ConsoleCookies.removal(of: ConsoleCookies.signIn, path: ConsolePaths.signIn, secure: secure))
        return response
    }

    /// `POST /console/sign-out`: ends the session and removes its cookie.
    func signOut(_ request: Request, context: some RequestContext) async throws -> Response {
        let session = try currentSession()
        try ConsoleCSRF.checkSameOrigin(request)
        var request = request
        let form = try await ConsoleForm.decode(ConsoleTokenForm.self, from: &request)
        try ConsoleCSRF.checkToken(form.csrf, expected: session.csrfToken)
        sessions.end(session)
        context.logger.info("console sign-out")
        var response = ConsoleResponses.redirect(to: ConsolePaths.signIn)
        response.setCookie(ConsoleCookies.removal(of: ConsoleCookies.session, path: ConsolePaths.home, secure: ConsoleCookies.isTLS(request)))
        return response
    }
}

/// The sign-in page's content.
struct ConsoleSignInPage: Sendable {
    /// Why the last attempt was refused.
    let error: String?
    /// The value of the sign-in cookie set with the page, echoed by the form.
    let signInToken: String
}
