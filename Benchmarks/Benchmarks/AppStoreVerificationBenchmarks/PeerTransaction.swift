import Foundation
import JWTKit

/// The transaction payload as a jwt-kit user would declare it: the fields of
/// `AppStoreVerification.Transaction` with the same names and JSON types (enumerations as their raw
/// strings; the two nested Advanced Commerce objects, absent from the corpus, left out).
///
/// `signedDate` is non-optional so the struct conforms to `ValidationTimePayload` and
/// `X5CVerifier` validates the chain at the payload's signing date, as our verifier does by default.
struct PeerTransaction: ValidationTimePayload, Equatable {
    let transactionId: String?
    let originalTransactionId: String?
    let webOrderLineItemId: String?
    let bundleId: String?
    let productId: String?
    let subscriptionGroupIdentifier: String?
    let purchaseDate: Date?
    let originalPurchaseDate: Date?
    let expiresDate: Date?
    let quantity: Int32?
    let type: String?
    let appAccountToken: String?
    let inAppOwnershipType: String?
    let signedDate: Date
    let revocationReason: Int32?
    let revocationDate: Date?
    let isUpgraded: Bool?
    let offerType: Int32?
    let offerIdentifier: String?
    let environment: String?
    let storefront: String?
    let storefrontId: String?
    let transactionReason: String?
    let currency: String?
    let price: Int64?
    let offerDiscountType: String?
    let appTransactionId: String?
    let offerPeriod: String?
    let revocationType: String?
    let revocationPercentage: Int32?
    let billingPlanType: String?
    let deviceVerification: String?
    let deviceVerificationNonce: String?

    /// jwt-kit calls this after the signature check; App Store payloads carry no `exp`/`aud` claims,
    /// and the bundle ID / environment comparisons are done by the caller (see the benchmark).
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
