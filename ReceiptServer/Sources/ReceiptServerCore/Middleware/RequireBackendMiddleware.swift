import Hummingbird

/// Lets a request through only from ``Caller/backend`` (the access token, checked by
/// ``BearerTokenMiddleware`` before it).
///
/// - ``Rule/customerData`` (`GET /customers/{appAccountToken}/entitlements`): 401 for anyone else;
///   open on a server started with `--allow-unauthenticated`.
/// - ``Rule/backendOnly`` (`POST /transactions/{transactionId}/reconcile`, which links purchases to
///   customers and spends the server's App Store Server API quota): 401 for anyone else, and 403
///   on a server without a token, whatever the caller sends.
struct RequireBackendMiddleware: RouterMiddleware {
    typealias Context = ReceiptRequestContext

    /// Which rule a route group follows.
    enum Rule: Sendable {
        case customerData
        case backendOnly
    }

    let rule: Rule
    let access: AccessControl

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if context.caller == .backend { return try await next(request, context) }
        switch (rule, access.isUnauthenticated) {
        case (.customerData, true):
            return try await next(request, context)
        case (.customerData, false):
            throw BearerTokenMiddleware.unauthorized("This route reveals a customer's data: send Authorization: Bearer <token> (the server's RECEIPT_SERVER_ACCESS_TOKEN).")
        case (.backendOnly, false):
            throw BearerTokenMiddleware.unauthorized("This route links purchases to customers and asks Apple on the server's key: send Authorization: Bearer <token> (the server's RECEIPT_SERVER_ACCESS_TOKEN).")
        case (.backendOnly, true):
            throw APIError(.forbidden, code: "accessTokenRequired",
                           "This server runs without an access token (--allow-unauthenticated), so nobody may reconcile: start it with RECEIPT_SERVER_ACCESS_TOKEN and call this route with Authorization: Bearer <token>.")
        }
    }
}
