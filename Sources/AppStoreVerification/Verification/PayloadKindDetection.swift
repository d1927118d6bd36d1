import Foundation

/// The one definition of which top-level members make a payload one kind of signed data, used by
/// the verifier (to refuse a payload handed to the wrong entry point) and by `verify-jws --type auto`.
extension SignedPayloadKind {
    /// The order in which kinds are tried: a notification may carry any other kind's fields nested,
    /// never at its top level; a transaction is told by its `transactionId` before the looser rules.
    static let detectionOrder: [SignedPayloadKind] = [.notification, .transaction, .appTransaction, .renewalInfo, .realtimeRequest]

    /// Whether `payload` (a JSON object) has the top-level members that mark this kind: any one of
    /// them, or for a realtime request both `requestIdentifier` and `userLocale`.
    func isIdentified(by payload: JSONValue) -> Bool {
        switch self {
        case .notification:
            payload.member("notificationType") != nil || payload.member("notificationUUID") != nil
        case .transaction:
            payload.member("transactionId") != nil
        case .appTransaction:
            ["receiptType", "applicationVersion", "originalApplicationVersion", "receiptCreationDate"].contains { payload.member($0) != nil }
        case .renewalInfo:
            ["autoRenewStatus", "autoRenewProductId", "renewalDate", "expirationIntent"].contains { payload.member($0) != nil }
        case .realtimeRequest:
            payload.member("requestIdentifier") != nil && payload.member("userLocale") != nil
        }
    }

    /// Tells which kind of signed data a JWS carries, from the fields of its payload; `nil` when the
    /// text is not a JWS with a JSON object payload, or the fields match no kind.
    public init?(detectingPayloadOf jws: String) {
        guard let compact = try? CompactJWS(parsing: jws) else { return nil }
        self.init(payloadJSON: compact.payloadData)
    }

    /// Tells which kind of signed data a payload JSON object is, from its top-level fields.
    public init?(payloadJSON: Data) {
        guard let document = try? JSONParser.parse(Array(payloadJSON)) else { return nil }
        self.init(payload: document.root)
    }

    /// Tells which kind of signed data a parsed payload is, from its top-level members.
    init?(payload: JSONValue) {
        guard payload.isObject, let kind = Self.detectionOrder.first(where: { $0.isIdentified(by: payload) }) else { return nil }
        self = kind
    }
}
