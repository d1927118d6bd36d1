import Foundation

/// The body of Send Consumption Information V1 (Apple's `ConsumptionRequestV1`), which Apple
/// deprecated: answer a `CONSUMPTION_REQUEST` with ``ConsumptionRequest`` (version 2) unless your
/// app uses the Advanced Commerce API.
///
/// Apple requires every field but ``refundPreference``; a `.undeclared` value (the default of the
/// initializer) declines to answer that one. Without an ``appAccountToken`` the field is sent as
/// an empty string, as Apple documents.
public struct ConsumptionRequestV1: Sendable, Hashable, Encodable {
    /// Whether the customer consented to sharing consumption data with the App Store.
    public var customerConsented: Bool
    /// How much of the purchase the customer consumed.
    public var consumptionStatus: ConsumptionStatus
    /// Where the customer consumed it.
    public var platform: Platform
    /// Whether you gave a free sample, trial or description of the content before purchase.
    public var sampleContentProvided: Bool
    /// Whether the purchase was delivered and works.
    public var deliveryStatus: DeliveryStatusV1
    /// The app account token of the customer's account, if your app set one.
    public var appAccountToken: UUID?
    /// The age of the customer's account.
    public var accountTenure: AccountTenure
    /// How long the customer used the app.
    public var playTime: PlayTime
    /// The customer's refunds in your app, in USD, across platforms.
    public var lifetimeDollarsRefunded: LifetimeDollarsRefunded
    /// The customer's purchases in your app, in USD, across platforms.
    public var lifetimeDollarsPurchased: LifetimeDollarsPurchased
    /// The status of the customer's account.
    public var userStatus: UserStatus
    /// The outcome you prefer (optional).
    public var refundPreference: RefundPreferenceV1?

    /// A consumption report; every field you do not know stays `.undeclared`.
    ///
    /// - Parameters: as the properties describe.
    public init(customerConsented: Bool, consumptionStatus: ConsumptionStatus = .undeclared, platform: Platform = .undeclared,
                sampleContentProvided: Bool, deliveryStatus: DeliveryStatusV1, appAccountToken: UUID? = nil,
                accountTenure: AccountTenure = .undeclared, playTime: PlayTime = .undeclared,
                lifetimeDollarsRefunded: LifetimeDollarsRefunded = .undeclared,
                lifetimeDollarsPurchased: LifetimeDollarsPurchased = .undeclared, userStatus: UserStatus = .undeclared,
                refundPreference: RefundPreferenceV1? = nil) {
        self.customerConsented = customerConsented
        self.consumptionStatus = consumptionStatus
        self.platform = platform
        self.sampleContentProvided = sampleContentProvided
        self.deliveryStatus = deliveryStatus
        self.appAccountToken = appAccountToken
        self.accountTenure = accountTenure
        self.playTime = playTime
        self.lifetimeDollarsRefunded = lifetimeDollarsRefunded
        self.lifetimeDollarsPurchased = lifetimeDollarsPurchased
        self.userStatus = userStatus
        self.refundPreference = refundPreference
    }

    private enum CodingKeys: String, CodingKey {
        case customerConsented, consumptionStatus, platform, sampleContentProvided, deliveryStatus, appAccountToken,
             accountTenure, playTime, lifetimeDollarsRefunded, lifetimeDollarsPurchased, userStatus, refundPreference
    }

    /// Encodes Apple's JSON: the app account token as a lowercase UUID, or `""` without one.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(customerConsented, forKey: .customerConsented)
        try container.encode(consumptionStatus, forKey: .consumptionStatus)
        try container.encode(platform, forKey: .platform)
        try container.encode(sampleContentProvided, forKey: .sampleContentProvided)
        try container.encode(deliveryStatus, forKey: .deliveryStatus)
        try container.encode(appAccountToken.map { $0.uuidString.lowercased() } ?? "", forKey: .appAccountToken)
        try container.encode(accountTenure, forKey: .accountTenure)
        try container.encode(playTime, forKey: .playTime)
        try container.encode(lifetimeDollarsRefunded, forKey: .lifetimeDollarsRefunded)
        try container.encode(lifetimeDollarsPurchased, forKey: .lifetimeDollarsPurchased)
        try container.encode(userStatus, forKey: .userStatus)
        try container.encodeIfPresent(refundPreference, forKey: .refundPreference)
    }
}
