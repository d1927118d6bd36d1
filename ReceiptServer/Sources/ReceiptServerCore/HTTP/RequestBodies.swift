/// The JSON bodies the routes take, decoded strictly by `request.decode(as:context:)` with
/// ``StrictJSONRequestDecoder`` (the library's App Store JSON parser: RFC 8259, a member given twice
/// is refused, so a body cannot carry two `appAccountToken`s that two parsers would read differently).

/// `POST /transactions`.
struct TransactionRequestBody: JSONRequestBody {
    /// `Transaction.jwsRepresentation`.
    let signedTransaction: String
    /// The customer, for a transaction that carries no `appAccountToken` of its own.
    let appAccountToken: String?
    /// `RenewalInfo.jwsRepresentation` of the same purchase.
    let signedRenewalInfo: String?

    static let shape = #"{"signedTransaction": "<Transaction.jwsRepresentation>", "appAccountToken": "<UUID, optional>", "signedRenewalInfo": "<JWS, optional>"}"#
}

/// `POST /notifications`: App Store Server Notifications V2 as Apple POSTs them.
struct NotificationRequestBody: JSONRequestBody {
    /// The notification JWS.
    let signedPayload: String

    static let shape = #"{"signedPayload": "<JWS>"}"#
}

/// `POST /transactions/{transactionId}/reconcile` (the body is optional).
struct ReconcileRequestBody: OptionalJSONRequestBody {
    /// The customer for transactions without an `appAccountToken` of their own.
    let appAccountToken: String?

    static let shape = #"{"appAccountToken": "<UUID>"} or no body"#
    /// No body: no customer claimed.
    static var whenEmpty: ReconcileRequestBody { ReconcileRequestBody(appAccountToken: nil) }
}
