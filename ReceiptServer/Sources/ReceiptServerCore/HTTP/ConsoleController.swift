import Hummingbird

/// The console's routes, all under `/console`, all answered as HTML with the security headers
/// (``ConsoleHeadersMiddleware``) and HTML error pages (``ConsoleErrorMiddleware``):
///
/// | Route | Needs |
/// |---|---|
/// | `GET /console/sign-in`, `POST /console/sign-in` | nothing (the form: the access token) |
/// | `GET /console/static/console.css`, `…/console.js`, `…/favicon.svg` | nothing |
/// | `GET /console`, `GET /console/search?q=` | a session |
/// | `GET /console/customers/{appAccountToken}` | a session |
/// | `GET /console/customers/{appAccountToken}/items/{id}` | a session |
/// | `POST /console/customers/{appAccountToken}/transactions/{transactionId}/reconcile` | a session and its CSRF token |
/// | `GET /console/customers/{appAccountToken}/events` | a session |
/// | `POST /console/customers/{appAccountToken}/events/{event}/redeliver` | a session and its CSRF token |
/// | `GET /console/customers/{appAccountToken}/refunds` | a session |
/// | `POST /console/sign-out` | a session and its CSRF token |
///
/// Any other `/console/…` path is behind the session too (then 404). Without a session a request
/// is redirected to the sign-in page. The JSON routes keep their bearer token; a session opens
/// only the console.
struct ConsoleController: Sendable {
    /// The console; `nil` on a server without an access token (there is nothing to sign in with,
    /// and `/console` is 404 like any unknown path).
    let console: Console?

    /// The console of a server with `accessToken` (none without one).
    init(server: ReceiptServerContext, accessToken: String?, reconcile: ReconcileController, isReconcileConfigured: Bool,
         throttle: AuthenticationThrottle) {
        if let accessToken, !accessToken.isEmpty {
            console = Console(server: server, accessToken: accessToken,
                              reconciliation: ConsoleReconciliation(route: reconcile, isConfigured: isReconcileConfigured), throttle: throttle)
        } else {
            console = nil
        }
    }

    /// Adds the console's routes to `router` (none without an access token).
    func addRoutes<Context: RequestContext & ClientAddressContext>(to router: Router<Context>) {
        guard let console else { return }
        let group = router.group("console")
            .add(middleware: ConsoleHeadersMiddleware())
            .add(middleware: ConsoleErrorMiddleware(pages: console.pages))
        // Open: the sign-in form, and the files its page loads.
        group.get("sign-in") { request, _ in
            console.signInPage(request)
        }
        group.post("sign-in") { request, context in
            try await console.signIn(request, context: context)
        }
        group.get("static/console.css") { _, _ in
            ConsoleStaticFiles.stylesheet()
        }
        group.get("static/console.js") { _, _ in
            ConsoleStaticFiles.script()
        }
        group.get("static/favicon.svg") { _, _ in
            ConsoleStaticFiles.icon()
        }
        // Everything else: a session.
        let closed = group.group().add(middleware: ConsoleSessionMiddleware(sessions: console.sessions))
        closed.get(use: console.search)
        closed.get("search", use: console.search)
        closed.get("customers/:appAccountToken", use: console.customerPage)
        closed.get("customers/:appAccountToken/items/:item", use: console.itemPage)
        closed.post("customers/:appAccountToken/transactions/:transactionId/reconcile", use: console.reconcile)
        // Outbound events (Webhooks/Console+Events.swift).
        closed.get("customers/:appAccountToken/events", use: console.eventsPage)
        closed.post("customers/:appAccountToken/events/:event/redeliver", use: console.redeliverEvent)
        // Refund requests (RefundRequests/Console+Refunds.swift).
        closed.get("customers/:appAccountToken/refunds", use: console.refundsPage)
        closed.post("sign-out", use: console.signOut)
        closed.get("**") { _, _ -> Response in
            throw ConsoleError.notFound
        }
        closed.post("**") { _, _ -> Response in
            throw ConsoleError.notFound
        }
    }
}
