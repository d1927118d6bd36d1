import Hummingbird

/// Sets ``ReceiptRequestContext/clientKey``: the connection's peer, or, when the peer is one of the
/// ``TrustedProxies``, the client address it appended to `X-Forwarded-For`. From any other peer the
/// header is ignored, so a client cannot choose the address it is counted under.
struct ClientAddressMiddleware: RouterMiddleware {
    typealias Context = ReceiptRequestContext
    let trustedProxies: TrustedProxies

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard !trustedProxies.isEmpty else { return try await next(request, context) }
        var context = context
        let forwardedFor = HTTPFields.Element.Name("X-Forwarded-For").map { request.headers[values: $0] } ?? []
        context.clientKey = trustedProxies.clientKey(peer: context.peerAddress, forwardedFor: forwardedFor)
        return try await next(request, context)
    }
}
