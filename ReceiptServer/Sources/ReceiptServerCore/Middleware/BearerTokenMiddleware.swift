import Hummingbird

/// Establishes the ``Caller`` of every request: ``Caller/backend`` for `Authorization: Bearer
/// <token>` naming the configured token (compared in constant time), ``Caller/anonymous`` for a
/// request without an `Authorization` header. A request that presents anything else is answered
/// 401 `unauthorized` (JSON, with `WWW-Authenticate: Bearer`), on every route, so that a backend
/// with a wrong token finds out at once instead of being answered as a stranger.
///
/// On a server without a token (``AccessControl/allowUnauthenticated``) every caller is anonymous.
/// Which routes need ``Caller/backend`` is ``RequireBackendMiddleware``'s business. To use your own
/// authentication instead, put your middleware in this one's place and set `context.caller`
/// (README, "Access").
struct BearerTokenMiddleware: RouterMiddleware {
    typealias Context = ReceiptRequestContext
    private let expected: [UInt8]?

    /// - Parameter token: the token callers must present; `nil` when the server has none.
    init(token: String?) {
        self.expected = token.map { Array($0.utf8) }
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let expected, let header = request.headers[.authorization] else {
            return try await next(request, context)
        }
        let scheme = "bearer "
        guard header.count > scheme.count, header.prefix(scheme.count).lowercased() == scheme else {
            throw Self.unauthorized("The Authorization header is not a bearer token: send Authorization: Bearer <token>, or no Authorization header at all.")
        }
        let presented = Array(header.dropFirst(scheme.count).utf8)
        guard Self.constantTimeEquals(presented, expected) else {
            throw Self.unauthorized("The bearer token is not the server's access token (RECEIPT_SERVER_ACCESS_TOKEN).")
        }
        var context = context
        context.caller = .backend
        return try await next(request, context)
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
