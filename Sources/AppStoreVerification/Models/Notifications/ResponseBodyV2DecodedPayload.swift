import Foundation

/// A version 2 App Store Server Notification, as signed by the App Store (the decoded
/// `signedPayload` of the request your server receives).
///
/// At most one of ``data``, ``summary``, ``externalPurchaseToken`` and ``appData`` is present,
/// depending on the notification type.
public struct ResponseBodyV2DecodedPayload: SignedPayload, Codable, Hashable, Sendable {
    /// The kind of signed data this model decodes.
    public static var payloadKind: SignedPayloadKind { .notification }

    /// The in-app purchase or external purchase event the notification reports.
    public let notificationType: NotificationTypeV2?

    /// Details about the event; present only for some notification types.
    public let subtype: Subtype?

    /// A unique identifier of the notification, the same across retries of one notification.
    public let notificationUUID: String?

    /// The app metadata and the signed transaction and renewal information.
    public let data: NotificationData?

    /// The version number of App Store Server Notifications, such as `2.0`.
    public let version: String?

    /// The time the App Store signed the JWS data.
    public let signedDate: Date?

    /// The result of a request to extend the renewal date of all eligible subscriptions; present for
    /// `RENEWAL_EXTENSION` with subtype `SUMMARY`.
    public let summary: NotificationSummary?

    /// An external purchase token; present for `EXTERNAL_PURCHASE_TOKEN`.
    public let externalPurchaseToken: ExternalPurchaseToken?

    /// The app metadata and the signed app transaction; present for `RESCIND_CONSENT`.
    public let appData: AppData?

    /// The JWS this notification was decoded from; `nil` when decoded from bare JSON. Not part of the
    /// JSON payload.
    package internal(set) var jws: CompactJWS? = nil

    /// ``NotificationData/signedTransactionInfo`` verified with the same verifier as the
    /// notification: `nil` when the notification carries none (or was decoded from bare JSON),
    /// `.failure` when it is not a decodable transaction JWS. Verifying the outer JWS says nothing
    /// about the inner one: check this result before trusting the transaction.
    public internal(set) var transactionInfo: Result<VerificationResult<Transaction>, SignedDataDecodingError>? = nil

    /// ``NotificationData/signedRenewalInfo`` verified with the same verifier as the notification;
    /// see ``transactionInfo``.
    public internal(set) var renewalInfo: Result<VerificationResult<RenewalInfo>, SignedDataDecodingError>? = nil

    /// ``AppData/signedAppTransactionInfo`` verified with the same verifier as the notification;
    /// see ``transactionInfo``.
    public internal(set) var appTransactionInfo: Result<VerificationResult<AppTransaction>, SignedDataDecodingError>? = nil

    private enum CodingKeys: String, CodingKey {
        case notificationType, subtype, notificationUUID, data, version, signedDate, summary
        case externalPurchaseToken, appData
    }
}

extension ResponseBodyV2DecodedPayload {
    /// Creates a notification payload, for tests and tools. Give exactly one of `data`, `summary`, `externalPurchaseToken` and `appData`, as Apple does; the signed members they carry (`signedTransactionInfo`, ...) are JWS texts (the testing library mints them from models).
    ///
    /// Every member is as documented on its property; dates are kept to whole milliseconds, as Apple
    /// writes them. A member given as `nil` is absent from the JSON.
    ///
    /// Defaults and meanings:
    ///   - `notificationUUID`: A new random UUID by default.
    ///   - `signedDate`: Now by default.
    public init(
        notificationType: NotificationTypeV2?,
        subtype: Subtype? = nil,
        notificationUUID: String? = UUID().uuidString.lowercased(),
        data: NotificationData? = nil,
        version: String? = "2.0",
        signedDate: Date? = Date(),
        summary: NotificationSummary? = nil,
        externalPurchaseToken: ExternalPurchaseToken? = nil,
        appData: AppData? = nil
    ) {
        self.notificationType = notificationType
        self.subtype = subtype
        self.notificationUUID = notificationUUID
        self.data = data
        self.version = version
        self.signedDate = signedDate.map(AppStoreJSON.wholeMilliseconds)
        self.summary = summary
        self.externalPurchaseToken = externalPurchaseToken
        self.appData = appData
    }
}
