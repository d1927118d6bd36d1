import Foundation

/// Verifies and decodes the signed data the App Store sends: transactions, renewal info, app
/// transactions and App Store Server Notifications V2.
///
/// Build one verifier when your server starts and share it: it is `Sendable`, holds the trust store
/// and a cache of validated chains, and serves any number of concurrent callers.
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
    let chainPolicy: AppleChainPolicy
    let chainCache: ValidatedChainCache
    let xcodePolicy: XcodeCertificatePolicy?
    /// App receipt (PKCS#7) verification: its own roots, chain rules and caches.
    let receiptPolicy: AppReceiptPolicy
    /// Online revocation checks; `nil` when ``Configuration/revocation`` is off.
    let revocationChecker: RevocationChecker?
    /// The effective-date policy in force: the configured one offline, `.now` online.
    let effectiveDatePolicy: EffectiveDatePolicy

    /// Creates a verifier.
    ///
    /// - Throws: ``VerifierConfigurationError`` when a trusted root does not parse, no root is
    ///   configured, or the environment is Production without an App Apple ID.
    public init(configuration: Configuration = Configuration()) throws(VerifierConfigurationError) {
        if configuration.environment == .production, configuration.appAppleId == nil {
            throw VerifierConfigurationError(.missingAppAppleId, "appAppleId is required when the environment is Production (App Store Connect → your app → App Information → Apple ID).")
        }
        guard configuration.maximumInputLength > 0 else {
            throw VerifierConfigurationError(.invalidSetting, "maximumInputLength must be positive.")
        }
        self.configuration = configuration
        self.chainPolicy = AppleChainPolicy(
            trustStore: try TrustStore(roots: configuration.trustedRoots), rules: .appStoreSignedData,
            strict: configuration.strictChecks, issuerCacheCapacity: min(configuration.chainCacheCapacity, 16))
        self.chainCache = ValidatedChainCache(capacity: configuration.chainCacheCapacity)
        self.xcodePolicy = try configuration.xcodeCertificate.map { root throws(VerifierConfigurationError) in try XcodeCertificatePolicy(root, rules: .signedData) }
        self.receiptPolicy = try AppReceiptPolicy(configuration: configuration)
        switch configuration.revocation {
        case .off:
            self.revocationChecker = nil
            self.effectiveDatePolicy = configuration.effectiveDate
        case .ocsp(let options):
            self.revocationChecker = try RevocationChecker(options: options)
            self.effectiveDatePolicy = .now
        }
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

    /// Verifies and decodes a JWS whose payload is `Payload`.
    ///
    /// ASCII white space around the JWS (a trailing newline from a file or a form) is ignored: it is
    /// outside the signed bytes.
    ///
    /// - Throws: ``SignedDataDecodingError`` when the input is not a JWS with such a payload, or, with
    ///   code ``SignedDataDecodingError/Code/onlineVerificationRequiresAsync`` and before reading the
    ///   input, when online revocation checks are on (use ``online`` then).
    public func verify<Payload: SignedPayload>(_ jws: some StringProtocol, as type: Payload.Type) throws(SignedDataDecodingError) -> VerificationResult<Payload> {
        try refuseSynchronousUseOnline(Payload.payloadKind.entryPoint)
        return try offlineVerify(jws, as: type)
    }

    /// Verifies and decodes a JWS given as bytes whose payload is `Payload`.
    ///
    /// - Throws: ``SignedDataDecodingError`` (see the `StringProtocol` overload).
    public func verify<Payload: SignedPayload>(_ jws: some Collection<UInt8>, as type: Payload.Type) throws(SignedDataDecodingError) -> VerificationResult<Payload> {
        try refuseSynchronousUseOnline(Payload.payloadKind.entryPoint)
        return try offlineVerify(try jwsText(of: jws), as: type)
    }

    /// The offline verification: every check but revocation.
    func offlineVerify<Payload: SignedPayload>(_ jws: some StringProtocol, as type: Payload.Type) throws(SignedDataDecodingError) -> VerificationResult<Payload> {
        try offlineVerification(jws, as: type).result
    }

    /// The verdict of the offline checks together with the chain they validated (`nil` for data
    /// verified against an Xcode certificate, and when a check failed before or at the chain), so
    /// that online mode asks about exactly that chain without reading its certificates again.
    func offlineVerification<Payload: SignedPayload>(_ jws: some StringProtocol, as type: Payload.Type) throws(SignedDataDecodingError) -> (result: VerificationResult<Payload>, chain: ValidatedChainCache.Entry?) {
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
        payload.jws = compact
        var chain: ValidatedChainCache.Entry?
        do throws(VerificationError) {
            chain = try verifySignature(of: compact, payload: payload, document: root)
            try RegisteredClaims.check(root, now: Date())
            try configuration.checkClaims(of: payload, kind: Payload.payloadKind)
            return (.verified(payload), chain)
        } catch {
            return (.unverified(payload, error), chain)
        }
    }

    /// Steps 2–4: header, chain, signature. Returns the validated chain with what the verifier
    /// remembers of it (`nil` for locally signed data, which has no App Store chain).
    @discardableResult
    func verifySignature(of jws: CompactJWS, payload: some SignedPayload, document: JSONValue) throws(VerificationError) -> ValidatedChainCache.Entry? {
        let instant = effectiveDatePolicy.instant(for: payload, document: document)
        if let environment = payload.appIdentity.environment, environment == .xcode || environment == .localTesting {
            try verifyLocallySigned(jws, environment: environment, at: instant)
            return nil
        }
        if let cached = chainCache.entry(for: jws, at: instant.seconds) {
            if let headerDigest = cached.headerDigest {
                try ES256Signature.verify(jws, headerDigest: headerDigest, key: cached.chain.leafKey, signer: Self.leafSigner)
            } else {
                try ES256Signature.verify(jws, key: cached.chain.leafKey, signer: Self.leafSigner)
            }
            return cached
        }
        let chain = try chainPolicy.validate(try JWSHeader(of: jws).requireCertificateChain(), at: instant)
        try ES256Signature.verify(jws, key: chain.leafKey, signer: Self.leafSigner)
        // Online, what to ask about is derived once per chain, here, from the certificates just
        // validated, and remembered with it.
        let entry = ValidatedChainCache.Entry(
            chain: chain, headerDigest: try? jws.withHeaderAndDot({ (bytes) throws(OpenSSLFailure) in try SHA256Prefix(absorbing: bytes) }),
            revocationSubjects: revocationChecker.map { _ in RevocationSubjects.of(chain) })
        // Only a chain whose signature held is remembered, with its header's digest state.
        if entry.headerDigest != nil {
            chainCache.insert(entry, for: jws)
        }
        return entry
    }

    private static let leafSigner = "the leaf certificate's key (x5c[0])"

    /// Data that says it was signed locally (environment Xcode or LocalTesting) is verified only
    /// against an explicitly configured Xcode certificate, and LocalTesting data never.
    private func verifyLocallySigned(_ jws: CompactJWS, environment: AppStoreEnvironment, at instant: EffectiveInstant) throws(VerificationError) {
        guard environment == .xcode else {
            throw .invalidCertificateChain("The payload says environment LocalTesting: the App Store never signs such data, and no certificate can vouch for it, so it is never verified.")
        }
        guard let xcodePolicy else {
            throw .invalidCertificateChain("The payload says environment Xcode: it was signed locally by Xcode's StoreKit Testing, not by the App Store, and no Xcode certificate is configured. To verify it in development, export the certificate from your StoreKit configuration file in Xcode (Editor ▸ Save Public Certificate) and pass it as Configuration.xcodeCertificate (verify-jws --xcode-certificate FILE).")
        }
        let key = try xcodePolicy.validate(try JWSHeader(of: jws).requireCertificateChain(), at: instant)
        try ES256Signature.verify(jws, key: key, signer: "the Xcode certificate's key")
    }
}
