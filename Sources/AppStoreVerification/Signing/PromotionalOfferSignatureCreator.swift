import Foundation

/// Creates promotional offer signatures (the original, V1, format) for StoreKit's
/// `Product.PurchaseOption.promotionalOffer(offerID:keyID:nonce:signature:timestamp:)` and
/// `SKPaymentDiscount`.
///
/// The signature is ECDSA with SHA-256 over the UTF-8 text
/// `bundleId ⁣ keyId ⁣ productIdentifier ⁣ subscriptionOfferID ⁣ applicationUsername (lowercased) ⁣
/// nonce (lowercased) ⁣ timestamp`, the parts joined by U+2063 INVISIBLE SEPARATOR, encoded as the
/// base64 of its DER form: exactly what Apple's App Store Server Library makes. ECDSA signatures are
/// randomized, so two signatures of the same values differ; both verify.
///
/// The names follow Apple's library (`PromotionalOfferSignatureCreator`); unlike it, the methods are
/// synchronous and throw typed errors.
///
/// See [Generating a signature for promotional offers](https://developer.apple.com/documentation/storekit/in-app_purchase/original_api_for_in-app_purchase/subscriptions_and_offers/generating_a_signature_for_promotional_offers).
public struct PromotionalOfferSignatureCreator: Sendable {
    private let key: SigningKey
    private let keyId: String
    private let bundleId: String

    /// Creates a signature creator from the PEM text of your in-app purchase key.
    ///
    /// - Parameters:
    ///   - privateKey: The PEM text of the key from App Store Connect (the `.p8` file's content).
    ///   - keyId: The key's identifier in App Store Connect.
    ///   - bundleId: Your app's bundle ID.
    /// - Throws: ``SigningKeyError`` when the key is not a usable P-256 private key.
    public init(privateKey: String, keyId: String, bundleId: String) throws(SigningKeyError) {
        self.init(signingKey: try SigningKey(pem: privateKey), keyId: keyId, bundleId: bundleId)
    }

    /// Creates a signature creator with a loaded key.
    ///
    /// - Parameters:
    ///   - signingKey: Your in-app purchase key from App Store Connect.
    ///   - keyId: The key's identifier in App Store Connect.
    ///   - bundleId: Your app's bundle ID.
    public init(signingKey: SigningKey, keyId: String, bundleId: String) {
        self.key = signingKey
        self.keyId = keyId
        self.bundleId = bundleId
    }

    /// Creates a promotional offer signature.
    ///
    /// Unlike the JWS creators, the nonce and the time have no default: the app passes both to
    /// StoreKit with the signature, so your server chooses them and sends them along.
    ///
    /// - Parameters:
    ///   - productIdentifier: The subscription product identifier.
    ///   - subscriptionOfferID: The subscription offer (discount) identifier.
    ///   - applicationUsername: The value the app passes as the app account token (or application
    ///     username); may be empty. It is lowercased before signing, as Apple's library does.
    ///   - nonce: A one-time UUID your server generates for every signature (signed lowercased).
    ///   - timestamp: When the signature is made; signed as whole milliseconds since 1970, rounded
    ///     to the nearest (``milliseconds(_:)``: send the app that number). The offer is valid for
    ///     24 hours from it.
    /// - Returns: The base64 (standard alphabet, padded) of the DER ECDSA signature.
    /// - Throws: ``SignatureCreationError`` with code `invalidRequest` for a time that whole
    ///   milliseconds since 1970 cannot hold; `signingFailed` when OpenSSL fails.
    public func createSignature(productIdentifier: String, subscriptionOfferID: String, applicationUsername: String,
                                nonce: UUID, timestamp: Date) throws(SignatureCreationError) -> String {
        guard let milliseconds = Self.milliseconds(timestamp) else {
            throw SignatureCreationError(.invalidRequest, "the timestamp \(timestamp.timeIntervalSince1970) s since 1970 is not a time whole milliseconds can hold")
        }
        let text = signedText(productIdentifier: productIdentifier, subscriptionOfferID: subscriptionOfferID,
                              applicationUsername: applicationUsername, nonce: nonce, timestamp: milliseconds)
        do {
            return try key.sign(Array(text.utf8), encoding: .der).base64EncodedString()
        } catch {
            throw SignatureCreationError(.signingFailed, "ECDSA-SHA256 signing failed: \(error.message)")
        }
    }

    /// Creates a promotional offer signature for a purchase with an app account token.
    ///
    /// - Parameters:
    ///   - productIdentifier: The subscription product identifier.
    ///   - subscriptionOfferID: The subscription offer (discount) identifier.
    ///   - appAccountToken: The app account token the purchase will carry, or `nil` for none (an
    ///     empty string is signed).
    ///   - nonce: A one-time UUID your server generates for every signature.
    ///   - timestamp: When the signature is made (signed as ``milliseconds(_:)``).
    /// - Returns: The base64 of the DER ECDSA signature.
    public func createSignature(productIdentifier: String, subscriptionOfferID: String, appAccountToken: UUID?,
                                nonce: UUID, timestamp: Date) throws(SignatureCreationError) -> String {
        try createSignature(productIdentifier: productIdentifier, subscriptionOfferID: subscriptionOfferID,
                            applicationUsername: appAccountToken?.uuidString ?? "", nonce: nonce, timestamp: timestamp)
    }

    /// The number `timestamp` is signed as, which the app passes to StoreKit: whole milliseconds
    /// since 1970, rounded to the nearest (`nil` for a time that cannot be one, such as an infinite
    /// one).
    public static func milliseconds(_ timestamp: Date) -> Int64? {
        let value = (timestamp.timeIntervalSince1970 * 1000).rounded()
        guard value.isFinite, value > -9e15, value < 9e15 else { return nil }
        return Int64(value)
    }

    /// The text that is signed: the values joined by U+2063, the username and nonce lowercased.
    func signedText(productIdentifier: String, subscriptionOfferID: String, applicationUsername: String,
                    nonce: UUID, timestamp: Int64) -> String {
        [bundleId, keyId, productIdentifier, subscriptionOfferID, applicationUsername.lowercased(),
         nonce.lowercasedText, String(timestamp)].joined(separator: "\u{2063}")
    }
}
