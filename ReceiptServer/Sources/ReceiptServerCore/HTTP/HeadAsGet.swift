import Hummingbird

/// Answers `HEAD` wherever `GET` is answered: wraps a router so that a `HEAD` request is routed as
/// `GET` (the router matches routes by method before any middleware runs), and the answer keeps
/// its status and headers, `Content-Length` included, without its body. The request is logged and
/// counted as the `GET` it was answered as.
struct HeadAsGet<Builder: HTTPResponderBuilder>: HTTPResponderBuilder {
    /// The router.
    let router: Builder

    func buildResponder() -> HeadAsGetResponder<Builder.Responder> {
        HeadAsGetResponder(next: router.buildResponder())
    }
}

/// The responder of ``HeadAsGet``.
struct HeadAsGetResponder<Next: HTTPResponder>: HTTPResponder {
    typealias Context = Next.Context
    let next: Next

    func respond(to request: Request, context: Context) async throws -> Response {
        guard request.method == .head else { return try await next.respond(to: request, context: context) }
        var head = request.head
        head.method = .get
        var response = try await next.respond(to: Request(head: head, body: request.body), context: context)
        let length = response.headers[.contentLength] ?? response.body.contentLength.map(String.init)
        response.body = ResponseBody()
        response.headers[.contentLength] = length ?? "0"
        return response
    }
}
