import AppStoreVerification
import Foundation

/// Turns one input line of `verify-jws entitlements` into an engine item, verified.
enum EntitlementLineReader {
    /// The line verified as the kind of signed data it holds (a notification body when it starts
    /// with `{`), or why it is malformed.
    static func item(for text: String, verifier: SignedDataVerifier) -> Result<EntitlementEngine.Item, SignedDataDecodingError> {
        do {
            if text.hasPrefix("{") {
                return .success(.notification(try verifier.verifyNotification(text)))
            }
            switch SignedPayloadKind(detectingPayloadOf: text) ?? .transaction {
            case .transaction: return .success(.transaction(try verifier.verifyTransaction(text)))
            case .renewalInfo: return .success(.renewalInfo(try verifier.verifyRenewalInfo(text)))
            case .notification: return .success(.notification(try verifier.verifyNotification(text)))
            case .appTransaction, .realtimeRequest, .appReceipt:
                let kind = SignedPayloadKind(detectingPayloadOf: text)?.description ?? "signed data"
                return .failure(SignedDataDecodingError(.wrongPayloadType, "The line is \(kind), which says nothing about entitlements; give transactions, renewal info and notifications."))
            }
        } catch {
            return .failure(error)
        }
    }

    /// The line's rejections: the item itself when unverified, else the data nested in a verified
    /// notification that did not verify or decode.
    static func nestedFailures(in item: EntitlementEngine.Item) -> [(status: EntitlementsOutput.Status, code: String, message: String)] {
        switch item {
        case .transaction(.unverified(_, let error)), .renewalInfo(.unverified(_, let error)), .notification(.unverified(_, let error)):
            return [(.unverified, error.code.description, error.message)]
        case .transaction(.verified), .renewalInfo(.verified):
            return []
        case .notification(.verified(let notification)):
            var failures: [(status: EntitlementsOutput.Status, code: String, message: String)] = []
            switch notification.transactionInfo {
            case .success(.unverified(_, let error)): failures.append((.unverified, error.code.description, "signedTransactionInfo: \(error.message)"))
            case .failure(let error): failures.append((.malformed, error.code.description, "signedTransactionInfo: \(error.message)"))
            case .success(.verified), nil: break
            }
            switch notification.renewalInfo {
            case .success(.unverified(_, let error)): failures.append((.unverified, error.code.description, "signedRenewalInfo: \(error.message)"))
            case .failure(let error): failures.append((.malformed, error.code.description, "signedRenewalInfo: \(error.message)"))
            case .success(.verified), nil: break
            }
            return failures
        }
    }
}
