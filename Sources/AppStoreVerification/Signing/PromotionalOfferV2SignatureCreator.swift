import Foundation

/// Creates promotional offer signatures in the JWS (V2) format, for StoreKit's
/// `Product.PurchaseOption.promotionalOffer(_:compactJWS:)`.
///
/// The JWS has the header `{"alg":"ES256","kid":KEY_ID,"typ":"JWT"}` and the claims `productId`,
/// `offerIdentifier`, `transactionId` (when given), `bid`, `iss`, `aud` (`promotional-offer`), `iat`
/// and `nonce`, as Apple's App Store Server Library makes them.
///
/// The names follow Apple's library (`PromotionalOfferV2SignatureCreator`); unlike it, the methods
/// are synchronous, throw typed errors, and accept the nonce and the time (for tests and replays).
///
/// See [Generating JWS to sign App Store requests](https://developer.apple.com/documentation/storekit/generating-jws-to-sign-app-store-requests).
public struct PromotionalOfferV2SignatureCreator: Sendable {
    /// The `aud` claim of promotional offer JWS.
    public static let audience = "promotional-offer"

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

    /// Creates a promotional offer V2 signature.
    ///
    /// - Parameters:
    ///   - productId: The product's identifier.
    ///   - offerIdentifier: The promotional offer identifier set up in App Store Connect.
    ///   - transactionId: The identifier of any transaction of the customer (their
    ///     `appTransactionId` works even without In-App Purchases); optional, but recommended.
    ///   - nonce: The `nonce` claim; `nil` (the default) for a new random UUID.
    ///   - issuedAt: The `iat` claim (whole seconds); now by default.
    /// - Returns: The compact JWS.
    public func createSignature(productId: String, offerIdentifier: String, transactionId: String? = nil,
                                nonce: UUID? = nil, issuedAt: Date = Date()) throws(SignatureCreationError) -> String {
        try signer.createSignature(Self.claims(productId: productId, offerIdentifier: offerIdentifier, transactionId: transactionId),
                                   nonce: nonce, issuedAt: issuedAt)
    }

    static func claims(productId: String, offerIdentifier: String, transactionId: String?) -> SignedJSONObject {
        var claims = SignedJSONObject()
        claims.set("productId", .string(productId))
        claims.set("offerIdentifier", .string(offerIdentifier))
        if let transactionId { claims.set("transactionId", .string(transactionId)) }
        return claims
    }
}
