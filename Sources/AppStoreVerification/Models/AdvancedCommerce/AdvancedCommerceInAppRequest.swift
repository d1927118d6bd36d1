/// A request your app passes to StoreKit to make an Advanced Commerce API purchase or change, once
/// your server has signed it with ``AdvancedCommerceInAppSignatureCreator``.
///
/// The library's requests (``AdvancedCommerceOneTimeChargeCreateRequest``,
/// ``AdvancedCommerceSubscriptionCreateRequest``, ``AdvancedCommerceSubscriptionModifyInAppRequest``,
/// ``AdvancedCommerceSubscriptionReactivateInAppRequest``) encode Apple's JSON, with the
/// `operation` and `version` members StoreKit expects, and check Apple's rules in ``validate()``.
/// ``AdvancedCommerceInAppSignatureCreator`` validates a request of this type before signing it and
/// refuses one that breaks a rule.
public protocol AdvancedCommerceInAppRequest: Encodable, Sendable {
    /// Checks Apple's rules for the request's members (lengths of SKUs, descriptions and display
    /// names, prices of zero or more, non-empty item lists, currency and storefront codes, offers).
    ///
    /// - Throws: ``AdvancedCommerceValidationError`` naming the first member that breaks a rule.
    func validate() throws(AdvancedCommerceValidationError)
}
