import AppStoreVerification

/// A request body of the Advanced Commerce API that checks Apple's rules before it is sent.
protocol AdvancedCommerceAPIRequest: Encodable, Sendable {
    /// Checks Apple's rules for the request's members.
    func validate() throws(AdvancedCommerceValidationError)
}
