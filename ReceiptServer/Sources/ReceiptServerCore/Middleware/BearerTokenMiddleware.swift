import Hummingbird

/// Lets a request through only with `Authorization: Bearer <token>` naming the configured token,
/// compared in constant time; otherwise 401 `unauthorized` (JSON, with `WWW-Authenticate: Bearer`).
///
/// Guards the routes that reveal a customer's data (see ``AccessControl``). To use your own
/// authentication instead, put your middleware in its place (README, "Access").
struct BearerTokenMiddleware<Context: RequestContext>: RouterMiddleware {
    private let expected: [UInt8]

    /// - Parameter token: the token callers must present.
    init(token: String) {
        self.expected = Array(token.utf8)
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let header = request.headers[.authorization] else {
            throw Self.unauthorized("This route needs credentials: send Authorization: Bearer <token> (the server's RECEIPT_SERVER_ACCESS_TOKEN).")
        }
        let scheme = "bearer "
        guard header.count > scheme.count, header.prefix(scheme.count).lowercased() == scheme else {
            throw Self.unauthorized("The Authorization header is not a bearer token: send Authorization: Bearer <token>.")
        }
        let presented = Array(header.dropFirst(scheme.count).utf8)
        guard Self.constantTimeEquals(presented, expected) else {
            throw Self.unauthorized("The bearer token is not the server's access token (RECEIPT_SERVER_ACCESS_TOKEN).")
        }
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

    private static func unauthorized(_ message: String) -> APIError {
        APIError(.unauthorized, code: "unauthorized", message, headers: [.wwwAuthenticate: "Bearer"])
    }
}
