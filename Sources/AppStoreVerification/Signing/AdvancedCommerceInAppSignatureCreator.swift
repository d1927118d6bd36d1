import Foundation

/// Creates signed Advanced Commerce API in-app requests, for StoreKit's
/// `Product.PurchaseOption.advancedCommerceData(_:)`.
///
/// The JWS has the header `{"alg":"ES256","kid":KEY_ID,"typ":"JWT"}` and the claims `request` (the
/// standard base64 of the request's JSON), `bid`, `iss`, `aud` (`advanced-commerce-api`), `iat` and
/// `nonce`, as Apple's App Store Server Library makes them.
///
/// The names follow Apple's library (`AdvancedCommerceInAppSignatureCreator`); unlike it, the methods
/// are synchronous, throw typed errors, and accept the nonce and the time. Pass one of the library's
/// requests (``AdvancedCommerceInAppRequest``: validated before signing), any other `Encodable`
/// request, or the request's JSON text.
///
/// See [Generating JWS to sign App Store requests](https://developer.apple.com/documentation/storekit/generating-jws-to-sign-app-store-requests).
public struct AdvancedCommerceInAppSignatureCreator: Sendable {
    /// The `aud` claim of Advanced Commerce in-app request JWS.
    public static let audience = "advanced-commerce-api"

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

    /// Signs one of the library's Advanced Commerce in-app requests after checking Apple's rules
    /// for its members (``AdvancedCommerceInAppRequest/validate()``).
    ///
    /// The request is encoded as the `Encodable` overload encodes it.
    ///
    /// - Parameters:
    ///   - advancedCommerceInAppRequest: The request: ``AdvancedCommerceOneTimeChargeCreateRequest``,
    ///     ``AdvancedCommerceSubscriptionCreateRequest``, ``AdvancedCommerceSubscriptionModifyInAppRequest``
    ///     or ``AdvancedCommerceSubscriptionReactivateInAppRequest``.
    ///   - nonce: The `nonce` claim; `nil` (the default) for a new random UUID.
    ///   - issuedAt: The `iat` claim (whole seconds); now by default.
    /// - Returns: The compact JWS.
    /// - Throws: ``SignatureCreationError`` with code `invalidRequest` when the request breaks one
    ///   of Apple's rules (the message is the ``AdvancedCommerceValidationError``'s) or cannot be
    ///   encoded; `signingFailed` when OpenSSL fails.
    public func createSignature(advancedCommerceInAppRequest: some AdvancedCommerceInAppRequest, nonce: UUID? = nil,
                                issuedAt: Date = Date()) throws(SignatureCreationError) -> String {
        do {
            try advancedCommerceInAppRequest.validate()
        } catch {
            throw SignatureCreationError(.invalidRequest, "the Advanced Commerce request breaks Apple's rules: \(error.message)")
        }
        return try encodeAndSign(advancedCommerceInAppRequest, nonce: nonce, issuedAt: issuedAt)
    }

    /// Signs an Advanced Commerce in-app request given as a Swift value.
    ///
    /// The request is encoded with `JSONEncoder` (dates as milliseconds since 1970, as Apple's
    /// library does; keys sorted and slashes unescaped, so that one value always gives one JWS).
    /// Nothing but its being a JSON object is checked: the library's own requests
    /// (``AdvancedCommerceInAppRequest``) take the overload that validates them.
    ///
    /// - Parameters:
    ///   - advancedCommerceInAppRequest: The request, which must encode as a JSON object.
    ///   - nonce: The `nonce` claim; `nil` (the default) for a new random UUID.
    ///   - issuedAt: The `iat` claim (whole seconds); now by default.
    /// - Returns: The compact JWS.
    public func createSignature(advancedCommerceInAppRequest: some Encodable, nonce: UUID? = nil,
                                issuedAt: Date = Date()) throws(SignatureCreationError) -> String {
        try encodeAndSign(advancedCommerceInAppRequest, nonce: nonce, issuedAt: issuedAt)
    }

    /// Encodes `request` with `JSONEncoder` (as the `Encodable` overload documents) and signs it.
    private func encodeAndSign(_ request: some Encodable, nonce: UUID?, issuedAt: Date) throws(SignatureCreationError) -> String {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json: Data
        do {
            json = try encoder.encode(request)
        } catch {
            throw SignatureCreationError(.invalidRequest, "the Advanced Commerce request cannot be encoded as JSON: \(error)")
        }
        return try createSignature(requestJSON: json, nonce: nonce, issuedAt: issuedAt)
    }

    /// Signs an Advanced Commerce in-app request given as JSON text.
    ///
    /// The text must be one strict JSON object (RFC 8259, no duplicate member names). Its bytes are
    /// embedded as they are, without surrounding white space: the `request` claim is their base64.
    ///
    /// - Parameters:
    ///   - requestJSON: The request's UTF-8 JSON text.
    ///   - nonce: The `nonce` claim; `nil` (the default) for a new random UUID.
    ///   - issuedAt: The `iat` claim (whole seconds); now by default.
    /// - Returns: The compact JWS.
    public func createSignature(requestJSON: Data, nonce: UUID? = nil, issuedAt: Date = Date()) throws(SignatureCreationError) -> String {
        let bytes = Array(requestJSON)
        guard let start = bytes.firstIndex(where: { !ASCIIWhiteSpace.contains($0) }),
              let end = bytes.lastIndex(where: { !ASCIIWhiteSpace.contains($0) })
        else {
            throw SignatureCreationError(.invalidRequest, "the Advanced Commerce request is empty; give the request as a JSON object")
        }
        let trimmed = Array(bytes[start...end])
        let document: JSONDocument
        do {
            document = try JSONParser.parse(trimmed)
        } catch {
            throw SignatureCreationError(.invalidRequest, "the Advanced Commerce request is not valid JSON (\(error)); give the request as a JSON object")
        }
        guard document.root.isObject else {
            throw SignatureCreationError(.invalidRequest, "the Advanced Commerce request must be a JSON object, not \(document.root.excerpt)")
        }
        var claims = SignedJSONObject()
        claims.set("request", .string(Data(trimmed).base64EncodedString()))
        return try signer.createSignature(claims, nonce: nonce, issuedAt: issuedAt)
    }
}
