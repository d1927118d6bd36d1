import Foundation

/// Verifies and decodes the signed data the App Store sends, offline: transactions, renewal info,
/// app transactions, App Store Server Notifications V2, realtime requests and app receipts.
///
/// Build one verifier when your server starts and share it: it is `Sendable`, holds the trust store
/// and a cache of validated chains, and serves any number of concurrent callers. Its entry points
/// are synchronous and make no network request; to also ask Apple's OCSP responders whether a
/// certificate was revoked, use an ``OnlineSignedDataVerifier``, whose entry points are `async`.
///
/// ```swift
/// let verifier = try SignedDataVerifier(configuration: .init(
///     bundleId: "com.example.app", appAppleId: 1234567890, environment: .production))
/// let result = try verifier.verifyTransaction(jwsFromTheApp)
/// if case .verified(let transaction) = result { grant(transaction) }
/// ```
///
/// Verification of one JWS (`ARCHITECTURE.md` names the file of each step):
/// 1. the text is split into its three base64url segments and the payload decoded into the model
///    (failures here throw ``SignedDataDecodingError``: there is no payload);
/// 2. the header must say `alg` ES256, mark nothing `crit`ical, and carry `x5c` [leaf, intermediate, root];
/// 3. the chain must satisfy Apple's policy (see ``Configuration/strictChecks``) at the effective date;
/// 4. the ES256 signature over `header.payload` must verify with the leaf's key;
/// 5. JWT registered claims, if any, must not refuse the payload; bundle ID, App Apple ID and
///    environment must match the configuration where the payload carries them.
/// A failure in steps 2–5 yields ``VerificationResult/unverified(_:_:)`` with the reason.
public final class SignedDataVerifier: Sendable {
    /// The configuration this verifier checks against.
    public let configuration: Configuration
    /// JWS verification: the chain policy, its caches and the Xcode certificate.
    let signedDataPolicy: SignedDataPolicy
    /// App receipt (PKCS#7) verification: its own roots, chain rules and caches.
    let receiptPolicy: AppReceiptPolicy
    /// Whether this verifier is the core of an ``OnlineSignedDataVerifier`` (chains then carry
    /// their revocation subjects, and the effective date is now).
    let online: Bool
    /// The effective-date policy in force: the configured one offline, `.now` online.
    let effectiveDatePolicy: EffectiveDatePolicy

    /// Creates a verifier.
    ///
    /// - Throws: ``VerifierConfigurationError`` when a trusted root does not parse, no root is
    ///   configured, or the environment is Production without an App Apple ID.
    public convenience init(configuration: Configuration = Configuration()) throws(VerifierConfigurationError) {
        try self.init(configuration: configuration, online: false)
    }

    /// A verifier offline, or the offline core of an online one.
    init(configuration: Configuration, online: Bool) throws(VerifierConfigurationError) {
        if configuration.environment == .production, configuration.appAppleId == nil {
            throw VerifierConfigurationError(.missingAppAppleId, "appAppleId is required when the environment is Production (App Store Connect → your app → App Information → Apple ID).")
        }
        guard configuration.maximumInputLength > 0 else {
            throw VerifierConfigurationError(.invalidSetting, "maximumInputLength must be positive.")
        }
        self.configuration = configuration
        self.signedDataPolicy = try SignedDataPolicy(configuration: configuration)
        self.receiptPolicy = try AppReceiptPolicy(configuration: configuration)
        self.online = online
        self.effectiveDatePolicy = online ? .now : configuration.effectiveDate
    }

    /// Creates a verifier the way Apple's App Store Server Library does.
    ///
    /// - Parameters:
    ///   - rootCertificates: DER-encoded trusted roots.
    ///   - bundleId: your app's bundle ID.
    ///   - appAppleId: your app's Apple ID; required for Production.
    ///   - environment: the environment payloads must come from.
    public convenience init(rootCertificates: [Data], bundleId: String, appAppleId: Int64?, environment: AppStoreEnvironment) throws(VerifierConfigurationError) {
        var roots: [TrustedRoot] = []
        for der in rootCertificates {
            roots.append(try TrustedRoot(derEncoded: der))
        }
        try self.init(configuration: Configuration(trustedRoots: roots, bundleId: bundleId, appAppleId: appAppleId, environment: environment))
    }

    /// Verifies and decodes a JWS whose payload is `Payload`, given as text or bytes.
    ///
    /// ASCII white space around the JWS (a trailing newline from a file or a form) is ignored: it is
    /// outside the signed bytes.
    ///
    /// - Throws: ``SignedDataDecodingError`` when the input is not a JWS with such a payload.
    public func verify<Payload: SignedPayload>(_ jws: some SignedDataInput, as type: Payload.Type) throws(SignedDataDecodingError) -> VerificationResult<Payload> {
        try offlineVerification(try jwsText(of: jws), as: type).result
    }

    /// The verdict of the offline checks together with the chain they validated (`nil` for data
    /// verified against an Xcode certificate, and when a check failed before or at the chain), so
    /// that online mode asks about exactly that chain without reading its certificates again.
    func offlineVerification<Payload: SignedPayload>(_ jws: some StringProtocol, as type: Payload.Type) throws(SignedDataDecodingError) -> (result: VerificationResult<Payload>, chain: SignedDataChainEntry?) {
        let length = jws.utf8.count
        guard length <= configuration.maximumInputLength else {
            throw SignedDataDecodingError(.inputTooLarge, "The input is \(length) bytes; the verifier accepts at most \(configuration.maximumInputLength) (App Store JWS are a few kilobytes). Raise maximumInputLength if this is expected.")
        }
        let compact = try CompactJWS(parsing: ASCIIWhiteSpace.trimmed(jws))
        var (payload, document) = try PayloadDecoder.decode(Payload.self, from: compact.payloadData)
        let root = document.root
        if !Payload.payloadKind.isIdentified(by: root), let actual = SignedPayloadKind(payload: root), actual != Payload.payloadKind {
            throw SignedDataDecodingError(.wrongPayloadType, "This is \(actual), not \(Payload.payloadKind): use \(actual.entryPoint) to verify it.")
        }
        if var attaching = payload as? any JWSAttaching {
            attaching.jws = compact
            if let attached = attaching as? Payload { payload = attached }
        }
        var chain: SignedDataChainEntry?
        do throws(VerificationError) {
            chain = try verifySignature(of: compact, payload: payload, document: root)
            try RegisteredClaims.check(root, now: configuration.clock.now)
            try configuration.checkClaims(of: payload, kind: Payload.payloadKind)
            return (.verified(payload), chain)
        } catch {
            return (.unverified(payload, error), chain)
        }
    }

    /// Steps 2–4: header, chain, signature, at the instant the effective-date policy gives.
    /// Returns the validated chain with what the verifier remembers of it (`nil` for locally signed
    /// data, which has no App Store chain).
    @discardableResult
    func verifySignature(of jws: CompactJWS, payload: some SignedPayload, document: JSONValue) throws(VerificationError) -> SignedDataChainEntry? {
        let instant = effectiveDatePolicy.instant(for: payload, document: document, now: configuration.clock.now)
        return try signedDataPolicy.verify(jws, environment: payload.appIdentity.environment, at: instant, online: online)
    }
}
