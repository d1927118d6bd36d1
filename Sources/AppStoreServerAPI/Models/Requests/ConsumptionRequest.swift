/// The body of Send Consumption Information v2 (Apple's `ConsumptionRequest`), your answer to a
/// `CONSUMPTION_REQUEST` notification.
public struct ConsumptionRequest: Sendable, Hashable, Encodable {
    /// Whether the customer consented to sharing consumption data with the App Store.
    public var customerConsented: Bool
    /// Whether you gave a free sample, trial or description of the content before purchase.
    public var sampleContentProvided: Bool
    /// Whether the purchase was delivered and works.
    public var deliveryStatus: DeliveryStatus
    /// How much of the purchase the customer consumed, in milliunits (0 to 100000).
    public var consumptionPercentage: Int32?
    /// The outcome you prefer.
    public var refundPreference: RefundPreference?

    /// A consumption report.
    ///
    /// - Parameters: as the properties describe.
    public init(customerConsented: Bool, sampleContentProvided: Bool, deliveryStatus: DeliveryStatus,
                consumptionPercentage: Int32? = nil, refundPreference: RefundPreference? = nil) {
        self.customerConsented = customerConsented
        self.sampleContentProvided = sampleContentProvided
        self.deliveryStatus = deliveryStatus
        self.consumptionPercentage = consumptionPercentage
        self.refundPreference = refundPreference
    }
}
