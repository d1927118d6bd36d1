/// Apple's acknowledgement of a request to extend every active subscription of a product (Apple's
/// `MassExtendRenewalDateResponse`); the work happens later.
public struct MassExtendRenewalDateResponse: Sendable, Hashable, Decodable {
    /// Your request identifier, echoed.
    public let requestIdentifier: String?
}
