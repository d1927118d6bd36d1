import Foundation

/// The App Store's signed record of a customer's purchase or download of an app.
public struct AppTransaction: SignedPayload, Codable, Hashable, Sendable {
    /// The kind of signed data this model decodes.
    public static var payloadKind: SignedPayloadKind { .appTransaction }

    /// The server environment that signed the app transaction: sandbox, production, or Xcode.
    public let receiptType: AppStoreEnvironment?

    /// The unique identifier the App Store uses for the app; absent in sandbox and Xcode.
    public let appAppleId: Int64?

    /// The bundle identifier of the app the app transaction applies to.
    public let bundleId: String?

    /// The app version the app transaction applies to.
    public let applicationVersion: String?

    /// The identifier the App Store gives each version of the app; absent in sandbox and Xcode.
    public let versionExternalIdentifier: Int64?

    /// The time the App Store signed the JWS app transaction.
    public let receiptCreationDate: Date?

    /// The time the customer originally purchased or downloaded the app from the App Store.
    public let originalPurchaseDate: Date?

    /// The app version the customer originally purchased from the App Store.
    public let originalApplicationVersion: String?

    /// The Base64 device-verification value, with which to check that the app transaction belongs to
    /// the device.
    public let deviceVerification: String?

    /// The UUID used to compute `deviceVerification`.
    public let deviceVerificationNonce: String?

    /// The time the customer pre-ordered the app before it became available in the App Store.
    public let preorderDate: Date?

    /// The unique identifier of the app download transaction.
    public let appTransactionId: String?

    /// The platform on which the customer originally purchased the app.
    public let originalPlatform: PurchasePlatform?

    /// The time the JWS was signed; StoreKit Testing in Xcode writes it, the App Store relies on
    /// `receiptCreationDate` instead.
    public let signedDate: Date?

    /// The date the app requested this app transaction (written by Xcode's StoreKit Testing).
    public let requestDate: Date?

    /// The JWS this app transaction was decoded from; `nil` when decoded from bare JSON. Not part of
    /// the JSON payload.
    package internal(set) var jws: CompactJWS? = nil

    /// The server environment, the same as ``receiptType``, under the name the other payloads use.
    public var environment: AppStoreEnvironment? { receiptType }

    /// ``deviceVerificationNonce`` as a UUID, or `nil` when absent or not a UUID.
    public var deviceVerificationNonceUUID: UUID? { deviceVerificationNonce.flatMap(UUID.init(uuidString:)) }

    /// When the certificates are checked by default: ``signedDate``, else ``receiptCreationDate``
    /// (app transactions from StoreKit Testing carry only the latter), as Apple's library does.
    public var defaultEffectiveDate: Date? { signedDate ?? receiptCreationDate }

    private enum CodingKeys: String, CodingKey {
        case receiptType, appAppleId, bundleId, applicationVersion, versionExternalIdentifier
        case receiptCreationDate, originalPurchaseDate, originalApplicationVersion, deviceVerification
        case deviceVerificationNonce, preorderDate, appTransactionId, originalPlatform, signedDate
        case requestDate
    }
}

extension AppTransaction {
    /// Creates an app transaction, for tests and tools: the defaults describe a sandbox download of `com.example.app` on iOS, signed now.
    ///
    /// Every member is as documented on its property; dates are kept to whole milliseconds, as Apple
    /// writes them. A member given as `nil` is absent from the JSON.
    ///
    /// Defaults and meanings:
    ///   - `receiptType`: The environment.
    ///   - `receiptCreationDate`: Now by default.
    ///   - `originalPurchaseDate`: Now by default.
    ///   - `signedDate`: Now by default.
    public init(
        receiptType: AppStoreEnvironment? = .sandbox,
        appAppleId: Int64? = nil,
        bundleId: String? = "com.example.app",
        applicationVersion: String? = "1",
        versionExternalIdentifier: Int64? = nil,
        receiptCreationDate: Date? = Date(),
        originalPurchaseDate: Date? = Date(),
        originalApplicationVersion: String? = "1",
        deviceVerification: String? = nil,
        deviceVerificationNonce: String? = nil,
        preorderDate: Date? = nil,
        appTransactionId: String? = "704289572311837765",
        originalPlatform: PurchasePlatform? = .iOS,
        signedDate: Date? = Date(),
        requestDate: Date? = nil
    ) {
        self.receiptType = receiptType
        self.appAppleId = appAppleId
        self.bundleId = bundleId
        self.applicationVersion = applicationVersion
        self.versionExternalIdentifier = versionExternalIdentifier
        self.receiptCreationDate = receiptCreationDate.map(AppStoreJSON.wholeMilliseconds)
        self.originalPurchaseDate = originalPurchaseDate.map(AppStoreJSON.wholeMilliseconds)
        self.originalApplicationVersion = originalApplicationVersion
        self.deviceVerification = deviceVerification
        self.deviceVerificationNonce = deviceVerificationNonce
        self.preorderDate = preorderDate.map(AppStoreJSON.wholeMilliseconds)
        self.appTransactionId = appTransactionId
        self.originalPlatform = originalPlatform
        self.signedDate = signedDate.map(AppStoreJSON.wholeMilliseconds)
        self.requestDate = requestDate.map(AppStoreJSON.wholeMilliseconds)
    }
}
