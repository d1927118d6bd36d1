/// Who may use the routes that reveal customers' data or spend the server's App Store Server API
/// quota: callers presenting the access token (your backend). Closed by default: a server has a
/// token unless it was started, on purpose, with ``allowUnauthenticated``.
///
/// - With a token, `GET /customers/{appAccountToken}/entitlements` and
///   `POST /transactions/{transactionId}/reconcile` need `Authorization: Bearer <token>` (compared in
///   constant time), and only such a caller gets a customer's data in the answers of
///   `POST /transactions` and `POST /notifications`.
/// - ``allowUnauthenticated`` (`--allow-unauthenticated`) opens the entitlements route to anyone who
///   knows a customer's `appAccountToken`; reconcile is then refused to everyone.
///
/// `POST /transactions` and `POST /notifications` are open either way (their bodies are signed by
/// Apple) and answer anyone only about what was posted.
public struct AccessControl: Sendable, Hashable {
    /// The bearer token callers must present; `nil` only for ``allowUnauthenticated``.
    public let bearerToken: String?

    /// Customer data and reconcile behind `token`.
    ///
    /// - Parameter bearerToken: the token your backend presents; ``ReceiptServer`` refuses one that
    ///   does not pass ``AccessTokenRule`` (32 or more characters from a random generator).
    public init(bearerToken: String) {
        self.bearerToken = bearerToken
    }

    private init(unauthenticated: Void) {
        self.bearerToken = nil
    }

    /// No access token: anyone who can reach the port may read a customer's entitlements if they
    /// know the customer's `appAccountToken`, and nobody may reconcile. Only for a server that
    /// listens on a private address, or whose `appAccountToken`s are secrets (see the README).
    public static let allowUnauthenticated = AccessControl(unauthenticated: ())

    /// Whether the server runs without an access token.
    public var isUnauthenticated: Bool { bearerToken == nil }
}
