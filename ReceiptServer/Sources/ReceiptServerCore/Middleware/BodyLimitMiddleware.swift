import Hummingbird

/// Answers 413 at once to a request whose `Content-Length` is over the body limit, before any of
/// the body is read, and sets the limit as the context's `maxUploadSize`, which
/// ``StrictJSONRequestDecoder`` reads bodies up to (a body without `Content-Length`, chunked, is
/// cut off there with the same 413).
struct BodyLimitMiddleware: RouterMiddleware {
    typealias Context = ReceiptRequestContext
    let maximumBodyBytes: Int

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let text = request.headers[.contentLength], let length = Int(text), length > maximumBodyBytes {
            throw APIError(.contentTooLarge, code: "bodyTooLarge",
                           "The request body is \(length) bytes; this server accepts at most \(maximumBodyBytes) (--max-body-bytes). App Store signed data is a few kilobytes.")
        }
        var context = context
        context.maxUploadSize = maximumBodyBytes
        return try await next(request, context)
    }
}
