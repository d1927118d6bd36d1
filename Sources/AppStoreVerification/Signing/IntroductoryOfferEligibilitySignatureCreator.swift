import Foundation

/// Creates introductory offer eligibility signatures, for StoreKit's
/// `Product.PurchaseOption.introductoryOfferEligibility(compactJWS:)`: your server's word on whether
/// a customer may get a product's introductory offer.
///
/// The JWS has the header `{"alg":"ES256","kid":KEY_ID,"typ":"JWT"}` and the claims `productId`,
/// `allowIntroductoryOffer`, `transactionId`, `bid`, `iss`, `aud`
/// (`introductory-offer-eligibility`), `iat` and `nonce`, as Apple's App Store Server Library makes
/// them.
///
/// The names follow Apple's library (`IntroductoryOfferEligibilitySignatureCreator`); unlike it, the
/// methods are synchronous, throw typed errors, and accept the nonce and the time.
///
/// See [Generating JWS to sign App Store requests](https://developer.apple.com/documentation/storekit/generating-jws-to-sign-app-store-requests).
public struct IntroductoryOfferEligibilitySignatureCreator: Sendable {
    /// The `aud` claim of introductory offer eligibility JWS.
    public static let audience = "introductory-offer-eligibility"

    private let signer: AppStoreRequestSigner

    /// Creates a signature creator from the PEM text of your key.
    ///
    /// - Parameters:
    ///   - signingKey: The PEM text of the key from App Store Connect (the `.p8` file's content).
    ///   - keyId: The key's identifier in App Store Connect.
    ///   - issuerId: Your issuer ID from the Keys page in App Store Connect.
    ///   - bundleId: Your app's bundle ID.
    /// - Throws: ``SigningKeyError`` when the key is not a usable P-256 private key.
    public init(signingKey: String, keyId: String, issuerId: String, bundleId: String) throws(SigningKeyError) {
        self.init(signingKey: try SigningKey(pem: signingKey), keyId: keyId, issuerId: issuerId, bundleId: bundleId)
    }

    /// Creates a signature creator with a loaded key.
    ///
    /// - Parameters:
    ///   - signingKey: Your key from App Store Connect (``SigningKey/init(contentsOf:)`` reads the
    ///     `.p8` file).
    ///   - keyId: The key's identifier in App Store Connect.
    ///   - issuerId: Your issuer ID from the Keys page in App Store Connect.
    ///   - bundleId: Your app's bundle ID.
    public init(signingKey: SigningKey, keyId: String, issuerId: String, bundleId: String) {
        self.signer = AppStoreRequestSigner(audience: Self.audience, key: signingKey, keyId: keyId, issuerId: issuerId, bundleId: bundleId)
    }

    /// Creates an introductory offer eligibility signature.
    ///
    /// - Parameters:
    ///   - productId: The product's identifier.
    ///   - allowIntroductoryOffer: Whether the customer may get the introductory offer.
    ///   - transactionId: The identifier of any transaction of the customer (their
    ///     `appTransactionId` works even without In-App Purchases).
    ///   - nonce: The `nonce` claim; `nil` (the default) for a new random UUID.
    ///   - issuedAt: The `iat` claim (whole seconds); now by default.
    /// - Returns: The compact JWS.
    public func createSignature(productId: String, allowIntroductoryOffer: Bool, transactionId: String,
                                nonce: UUID? = nil, issuedAt: Date = Date()) throws(SignatureCreationError) -> String {
        var claims = SignedJSONObject()
        claims.set("productId", .string(productId))
        claims.set("allowIntroductoryOffer", .bool(allowIntroductoryOffer))
        claims.set("transactionId", .string(transactionId))
        return try signer.createSignature(claims, nonce: nonce, issuedAt: issuedAt)
    }
}
