/// Who may call the routes that reveal a customer's data (`GET /customers/{appAccountToken}/entitlements`
/// and `POST /transactions/{transactionId}/reconcile`).
///
/// With a token set, those routes need `Authorization: Bearer <token>` (compared in constant time)
/// and answer 401 otherwise. `POST /transactions` and `POST /notifications` stay open (their bodies
/// are signed by Apple), and so do `/health` and `/metrics`.
public struct AccessControl: Sendable, Hashable {
    /// The bearer token callers must present; `nil` leaves every route open.
    public var bearerToken: String?

    /// Creates the access rule.
    ///
    /// - Parameter bearerToken: the token callers must present, or `nil` for open routes.
    public init(bearerToken: String? = nil) {
        self.bearerToken = bearerToken
    }

    /// Every route open (the default; for a server that only listens on a private address).
    public static let open = AccessControl()
}
