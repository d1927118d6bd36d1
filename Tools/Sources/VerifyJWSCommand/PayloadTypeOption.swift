import AppStoreVerification
import ArgumentParser

/// The `--type` option: which kind of signed data the input holds.
enum PayloadTypeOption: String, ExpressibleByArgument, CaseIterable, Sendable {
    case auto
    case transaction
    case renewal
    case appTransaction = "app-transaction"
    case notification
    case realtimeRequest = "realtime-request"
    case appReceipt = "app-receipt"

    /// The library's kind for an explicit choice; `nil` for `auto`.
    var kind: SignedPayloadKind? {
        switch self {
        case .auto: nil
        case .transaction: .transaction
        case .renewal: .renewalInfo
        case .appTransaction: .appTransaction
        case .notification: .notification
        case .realtimeRequest: .realtimeRequest
        case .appReceipt: .appReceipt
        }
    }
}
