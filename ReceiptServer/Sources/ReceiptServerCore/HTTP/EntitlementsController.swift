import Foundation
import Hummingbird

/// `GET /customers/{appAccountToken}/entitlements[?at=<ms since 1970 | ISO 8601>]`: what the
/// customer has access to now (or at `at`), as ``EntitlementsAnswer``. A customer the server has
/// never seen has no entitlements (200, empty lists).
struct EntitlementsController: Sendable {
    let server: ReceiptServerContext

    /// Adds the route to `router`, which the caller guards (a customer's data: the backend only,
    /// unless the server runs without a token).
    func addRoutes(to router: some RouterMethods<ReceiptRequestContext>) {
        router.get("customers/:appAccountToken/entitlements", use: handle)
    }

    @Sendable func handle(_ request: Request, context: ReceiptRequestContext) async throws -> Response {
        let text = context.parameters.get("appAccountToken") ?? ""
        guard let customer = CustomerKey.canonical(text) else {
            throw APIError(.badRequest, code: "invalidAppAccountToken",
                           "\"\(text.prefix(64))\" is not an appAccountToken: use the UUID the app passed to StoreKit (Product.PurchaseOption.appAccountToken).")
        }
        var instant = server.configuration.clock.now
        if let at = request.uri.queryParameters.get("at") {
            guard let date = UnixMilliseconds.parse(at) else {
                throw APIError(.badRequest, code: "invalidAt",
                               "at=\(at.prefix(64)) is neither milliseconds since 1970 nor an ISO 8601 date such as 2026-03-01T12:00:00Z.")
            }
            instant = date
        }
        return JSONBody.response(try await server.entitlements(of: customer, at: instant))
    }
}
