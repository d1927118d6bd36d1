/// The body of Extend a Subscription Renewal Date (Apple's `ExtendRenewalDateRequest`).
public struct ExtendRenewalDateRequest: Sendable, Hashable, Encodable {
    /// Days to extend by: 1 to 90 (Apple allows two extensions a year per subscription).
    public var extendByDays: Int32
    /// Why.
    public var extendReasonCode: ExtendReasonCode
    /// Your unique ID of this request, which makes retrying it safe (a UUID is a good choice).
    public var requestIdentifier: String

    /// A request to extend by `extendByDays` days.
    ///
    /// - Parameters: as the properties describe.
    public init(extendByDays: Int32, extendReasonCode: ExtendReasonCode, requestIdentifier: String) {
        self.extendByDays = extendByDays
        self.extendReasonCode = extendReasonCode
        self.requestIdentifier = requestIdentifier
    }
}
