/// The kinds of signed data the App Store sends.
public enum SignedPayloadKind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// A transaction (`JWSTransactionDecodedPayload`).
    case transaction
    /// Subscription renewal info (`JWSRenewalInfoDecodedPayload`).
    case renewalInfo
    /// An app transaction (`AppTransaction`).
    case appTransaction
    /// An App Store Server Notification V2 (`ResponseBodyV2DecodedPayload`).
    case notification
    /// A retention-messaging realtime request (`DecodedRealtimeRequestBody`).
    case realtimeRequest
    /// A legacy app receipt (PKCS#7, `Bundle.main.appStoreReceiptURL`), not a JWS: see
    /// ``SignedDataVerifier/verifyAppReceipt(_:)``.
    case appReceipt

    public var description: String {
        switch self {
        case .transaction: "a transaction"
        case .renewalInfo: "subscription renewal info"
        case .appTransaction: "an app transaction"
        case .notification: "an App Store Server Notification"
        case .realtimeRequest: "a retention-messaging realtime request"
        case .appReceipt: "an app receipt"
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
