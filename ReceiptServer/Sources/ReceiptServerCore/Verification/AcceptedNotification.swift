import AppStoreVerification

/// A notification that verified, with every signed item inside it: what the store keeps of it and
/// the customer its own signed data names.
struct AcceptedNotification: Sendable {
    /// The verified payload.
    let notification: ResponseBodyV2DecodedPayload
    /// Its `signedPayload` exactly as Apple signed it.
    let jws: String
    /// Its verified `signedTransactionInfo`, if it has one.
    let transaction: Transaction?
    /// Its verified `signedRenewalInfo`, if it has one.
    let renewal: RenewalInfo?

    /// The purchase it is about.
    var purchase: String? { transaction?.originalTransactionId ?? renewal?.originalTransactionId }

    /// The `appAccountToken` inside its transaction or renewal info (canonical), if any.
    var customer: String? { (transaction?.appAccountTokenUUID ?? renewal?.appAccountTokenUUID).map { CustomerKey.canonical($0) } }

    /// The row to store.
    var row: VerifiedSignedData {
        VerifiedSignedData(
            row: StoredSignedData(
                kind: .notification, jws: jws, originalTransactionId: purchase,
                transactionId: transaction?.transactionId, notificationUUID: notification.notificationUUID,
                notificationType: notification.notificationType?.rawValue, productId: transaction?.productId ?? renewal?.productId,
                signedDate: notification.signedDate.map(UnixMilliseconds.of)),
            item: .notification(.verified(notification)))
    }
}
