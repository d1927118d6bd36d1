/// One verified JWS as the store keeps it: the exact text, which kind it is, and the identifiers
/// that find it again. It was verified when it arrived; the store keeps what it counts for beside it
/// (verified again only by `ReceiptServer reverify`), and the text stays as the record of what the App
/// Store signed.
public struct StoredSignedData: Sendable, Hashable {
    /// What the JWS holds.
    public var kind: SignedDataKind
    /// The compact JWS exactly as received.
    public var jws: String
    /// The purchase this data belongs to (`originalTransactionId`), when it names one.
    public var originalTransactionId: String?
    /// The transaction's `transactionId` (transactions, and notifications that carry one).
    public var transactionId: String?
    /// The notification's `notificationUUID` (notifications only).
    public var notificationUUID: String?
    /// The notification's `notificationType` (notifications only).
    public var notificationType: String?
    /// The product, when the data names one.
    public var productId: String?
    /// The payload's `signedDate`, in milliseconds since 1970.
    public var signedDate: Int64?

    /// Creates a row.
    public init(
        kind: SignedDataKind, jws: String, originalTransactionId: String? = nil, transactionId: String? = nil,
        notificationUUID: String? = nil, notificationType: String? = nil, productId: String? = nil, signedDate: Int64? = nil
    ) {
        self.kind = kind
        self.jws = jws
        self.originalTransactionId = originalTransactionId
        self.transactionId = transactionId
        self.notificationUUID = notificationUUID
        self.notificationType = notificationType
        self.productId = productId
        self.signedDate = signedDate
    }
}
