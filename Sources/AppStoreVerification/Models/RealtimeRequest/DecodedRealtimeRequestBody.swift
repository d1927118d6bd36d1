import Foundation

/// The signed request the App Store sends your server to ask for a real-time retention message
/// (Retention Messaging API).
public struct DecodedRealtimeRequestBody: SignedPayload, Codable, Hashable, Sendable {
    /// The kind of signed data this model decodes.
    public static var payloadKind: SignedPayloadKind { .realtimeRequest }

    /// The original transaction identifier of the customer's subscription.
    public let originalTransactionId: String?

    /// The unique identifier of the app in the App Store.
    public let appAppleId: Int64?

    /// The product identifier of the auto-renewable subscription.
    public let productId: String?

    /// The device's locale, such as `en-US`.
    public let userLocale: String?

    /// A UUID the App Store creates to identify each request uniquely.
    public let requestIdentifier: String?

    /// The server environment, sandbox or production.
    public let environment: AppStoreEnvironment?

    /// The time the App Store signed the JWS data.
    public let signedDate: Date?

    /// The JWS this request was decoded from; `nil` when decoded from bare JSON. Not part of the JSON
    /// payload.
    package internal(set) var jws: CompactJWS? = nil

    /// ``requestIdentifier`` as a UUID, or `nil` when absent or not a UUID.
    public var requestIdentifierUUID: UUID? { requestIdentifier.flatMap(UUID.init(uuidString:)) }

    private enum CodingKeys: String, CodingKey {
        case originalTransactionId, appAppleId, productId, userLocale, requestIdentifier, environment
        case signedDate
    }
}

extension DecodedRealtimeRequestBody {
    /// Creates a retention messaging real-time request, for tests and tools: the defaults describe a sandbox request in `en-US`, signed now.
    ///
    /// Every member is as documented on its property; dates are kept to whole milliseconds, as Apple
    /// writes them. A member given as `nil` is absent from the JSON.
    ///
    /// Defaults and meanings:
    ///   - `requestIdentifier`: A new random UUID by default.
    ///   - `signedDate`: Now by default.
    public init(
        originalTransactionId: String?,
        productId: String?,
        appAppleId: Int64? = nil,
        userLocale: String? = "en-US",
        requestIdentifier: String? = UUID().uuidString.lowercased(),
        environment: AppStoreEnvironment? = .sandbox,
        signedDate: Date? = Date()
    ) {
        self.originalTransactionId = originalTransactionId
        self.productId = productId
        self.appAppleId = appAppleId
        self.userLocale = userLocale
        self.requestIdentifier = requestIdentifier
        self.environment = environment
        self.signedDate = signedDate.map(AppStoreJSON.wholeMilliseconds)
    }
}
