import Hummingbird

/// Answers `HEAD` wherever `GET` is answered: the request goes to the `GET` route, and the answer
/// keeps its status and headers (with the body's `Content-Length`) but not its body.
struct HeadMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .head else { return try await next(request, context) }
        var head = request.head
        head.method = .get
        var response = try await next(Request(head: head, body: request.body), context)
        let length = response.headers[.contentLength] ?? response.body.contentLength.map(String.init)
        response.body = ResponseBody()
        response.headers[.contentLength] = length ?? "0"
        return response
    }
}
