import AppStoreVerification

extension SignedPayloadKind {
    /// The name `--type` and the JSON output use.
    var optionName: String {
        switch self {
        case .transaction: "transaction"
        case .renewalInfo: "renewal"
        case .appTransaction: "app-transaction"
        case .notification: "notification"
        case .realtimeRequest: "realtime-request"
        case .appReceipt: "app-receipt"
        }
    }
}
