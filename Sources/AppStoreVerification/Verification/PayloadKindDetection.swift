import Foundation

extension SignedPayloadKind {
    /// Tells which kind of signed data a JWS carries, from the fields of its payload; `nil` when the
    /// text is not a JWS with a JSON object payload, or the fields match no kind.
    public init?(detectingPayloadOf jws: String) {
        guard let compact = try? CompactJWS(parsing: jws) else { return nil }
        self.init(payloadJSON: compact.payloadData)
    }

    /// Tells which kind of signed data a payload JSON object is, from its top-level fields.
    public init?(payloadJSON: Data) {
        guard let document = try? JSONParser.parse(Array(payloadJSON)) else { return nil }
        self.init(document: document)
    }

    /// Tells which kind of signed data a parsed payload is, from its top-level member names.
    init?(document: JSONDocument) {
        guard document.nodes.first?.kind == .object else { return nil }
        let keys = Set(document.memberNames(in: 0))
        if !keys.isDisjoint(with: ["notificationType", "notificationUUID"]) {
            self = .notification
        } else if keys.contains("transactionId") {
            self = .transaction
        } else if !keys.isDisjoint(with: ["receiptType", "applicationVersion", "originalApplicationVersion", "receiptCreationDate"]) {
            self = .appTransaction
        } else if !keys.isDisjoint(with: ["autoRenewStatus", "autoRenewProductId", "renewalDate", "expirationIntent"]) {
            self = .renewalInfo
        } else if keys.contains("requestIdentifier"), keys.contains("userLocale") {
            self = .realtimeRequest
        } else {
            return nil
        }
    }

    /// The verifier's entry point for this kind, for messages.
    var entryPoint: String {
        switch self {
        case .transaction: "verifyTransaction"
        case .renewalInfo: "verifyRenewalInfo"
        case .appTransaction: "verifyAppTransaction"
        case .notification: "verifyNotification"
        case .realtimeRequest: "verifyRealtimeRequest"
        case .appReceipt: "verifyAppReceipt"
        }
    }
}
