import Hummingbird

/// Answers 413 at once to a request whose `Content-Length` is over the body limit, before any of
/// the body is read. (A body without `Content-Length`, chunked, is cut off at the limit by the
/// routes' reader with the same 413.)
struct BodyLimitMiddleware<Context: RequestContext>: RouterMiddleware {
    let maximumBodyBytes: Int

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let text = request.headers[.contentLength], let length = Int(text), length > maximumBodyBytes {
            throw APIError(.contentTooLarge, code: "bodyTooLarge",
                           "The request body is \(length) bytes; this server accepts at most \(maximumBodyBytes) (--max-body-bytes). App Store signed data is a few kilobytes.")
        }
        return try await next(request, context)
    }
}
