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
/// Verification of one JWS:
/// 1. the text is split into its three base64url segments and the payload decoded into the model
///    (failures here throw ``SignedDataDecodingError``: there is no payload);
/// 2. the header must say `alg` ES256, mark nothing `crit`ical, and carry `x5c` [leaf, intermediate, root];
/// 3. the chain must satisfy Apple's policy (see ``Configuration/strictChecks``) at the effective date;
/// 4. the ES256 signature over `header.payload` must verify with the leaf's key;
/// 5. bundle ID, App Apple ID and environment must match the configuration where the payload carries them.
/// A failure in steps 2–5 yields ``VerificationResult/unverified(_:_:)`` with the reason.
public final class SignedDataVerifier: Sendable {
    /// The configuration this verifier checks against.
    public let configuration: Configuration
    let chainPolicy: AppleChainPolicy
    /// Validated chains by the exact header segment of the JWS that carried them: a hit means the
    /// header passed its checks and its `x5c` chain validated, within the recorded window.
    let chainCache: LRUCache<HeaderKey, ValidatedChain>
    let xcodePolicy: XcodeCertificatePolicy?
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
            throw VerifierConfigurationError("appAppleId is required when the environment is Production (App Store Connect → your app → App Information → Apple ID).")
        }
        guard configuration.maximumInputLength > 0 else {
            throw VerifierConfigurationError("maximumInputLength must be positive.")
        }
        self.configuration = configuration
        self.chainPolicy = AppleChainPolicy(
            trustStore: try TrustStore(roots: configuration.trustedRoots), strict: configuration.strictChecks,
            issuerCacheCapacity: min(configuration.chainCacheCapacity, 16))
        self.chainCache = LRUCache(capacity: configuration.chainCacheCapacity)
        self.xcodePolicy = try configuration.xcodeCertificate.map { root throws(VerifierConfigurationError) in try XcodeCertificatePolicy(root) }
        switch configuration.revocation {
        case .off:
            self.revocationChecker = nil
            self.effectiveDatePolicy = configuration.effectiveDate
        case .ocsp(let options):
            self.revocationChecker = try RevocationChecker(options: options, trustedRoots: configuration.trustedRoots, headerCacheCapacity: configuration.chainCacheCapacity)
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
    public convenience init(rootCertificates: [Data], bundleId: String, appAppleId: Int64?, environment: Environment) throws(VerifierConfigurationError) {
        var roots: [TrustedRoot] = []
        for der in rootCertificates {
            roots.append(try TrustedRoot(derEncoded: der))
        }
        try self.init(configuration: Configuration(trustedRoots: roots, bundleId: bundleId, appAppleId: appAppleId, environment: environment))
    }

    /// Verifies and decodes a signed transaction (`transaction.jwsRepresentation`, or
    /// `signedTransactionInfo` from a notification or the App Store Server API).
    ///
    /// - Throws: ``SignedDataDecodingError`` when the input is not a JWS with a transaction payload.
    public func verifyTransaction(_ signedTransaction: String) throws(SignedDataDecodingError) -> VerificationResult<Transaction> {
        try verify(signedTransaction, as: Transaction.self)
    }

    /// Verifies and decodes a JWS whose payload is `Payload`.
    ///
    /// - Throws: ``SignedDataDecodingError`` when the input is not a JWS with such a payload, or, with
    ///   code ``SignedDataDecodingError/Code/onlineVerificationRequiresAsync`` and before reading the
    ///   input, when online revocation checks are on (use the `async` entry points then).
    public func verify<Payload: SignedPayload>(_ jws: String, as type: Payload.Type) throws(SignedDataDecodingError) -> VerificationResult<Payload> {
        if revocationChecker != nil {
            throw SignedDataDecodingError(.onlineVerificationRequiresAsync, "Online revocation checks are on (Configuration.revocation), and they wait on the network: call the async entry point instead (try await verifier.\(Payload.payloadKind.entryPoint)(...)), or build a second verifier with revocation off for synchronous offline verification.")
        }
        return try offlineVerify(jws, as: type)
    }

    /// The offline verification: every check but revocation.
    func offlineVerify<Payload: SignedPayload>(_ jws: String, as type: Payload.Type) throws(SignedDataDecodingError) -> VerificationResult<Payload> {
        let length = jws.utf8.count
        guard length <= configuration.maximumInputLength else {
            throw SignedDataDecodingError(.inputTooLarge, "The input is \(length) bytes; the verifier accepts at most \(configuration.maximumInputLength) (App Store JWS are a few kilobytes). Raise maximumInputLength if this is expected.")
        }
        let compact = try CompactJWS(parsing: jws)
        let decoded = try PayloadDecoder.decode(Payload.self, from: compact.payloadData)
        var payload = decoded.0
        let document = decoded.1
        if let identifying = payload as? any KindIdentifying, !identifying.carriesIdentifyingField,
           let actual = SignedPayloadKind(document: document), actual != Payload.payloadKind {
            throw SignedDataDecodingError(.wrongPayloadType, "This is \(actual), not \(Payload.payloadKind): use \(actual.entryPoint) to verify it.")
        }
        payload.jws = compact
        if let error = cryptographicFailure(of: compact, payload: payload, document: document)
            ?? RegisteredClaims.failure(in: document, now: Date())
            ?? claimsFailure(of: payload) {
            return .unverified(payload, error)
        }
        return .verified(payload)
    }

    /// Steps 2–4: header, chain, signature.
    func cryptographicFailure<Payload: SignedPayload>(of jws: CompactJWS, payload: Payload, document: JSONDocument) -> VerificationError? {
        let instant: Int64
        let dateDescription: String
        switch effectiveDatePolicy {
        case .signedDate:
            // Apple's rule: signedDate, else receiptCreationDate, else now.
            if let date = payload.defaultEffectiveDate ?? Self.receiptCreationDate(in: document) {
                instant = Self.seconds(date)
                dateDescription = payload.signedDate == nil ? "the payload's receiptCreationDate" : "the payload's signedDate"
            } else {
                instant = Self.seconds(Date())
                dateDescription = "now, as the payload has neither signedDate nor receiptCreationDate"
            }
        case .now:
            instant = Self.seconds(Date())
            dateDescription = "now"
        case .fixed(let date):
            instant = Self.seconds(date)
            dateDescription = "the configured effective date"
        }

        if let environment = (payload as? any AppClaims)?.claimedEnvironment, environment == .xcode || environment == .localTesting {
            return locallySignedFailure(of: jws, environment: environment, at: instant, dateDescription: dateDescription)
        }

        let chain: ValidatedChain
        let cacheKey = HeaderKey(jws.headerSegment)
        if let cached = chainCache.value(for: cacheKey, where: { $0.validity.contains(instant) }) {
            chain = cached
        } else {
            let header: JWSHeader
            switch JWSHeader.parse(jws) {
            case .success(let parsed): header = parsed
            case .failure(let error): return error
            }
            let certificates: [Data]
            switch header.requireCertificateChain() {
            case .success(let chain): certificates = chain
            case .failure(let error): return error
            }
            switch chainPolicy.validate(certificates, at: instant, dateDescription: dateDescription) {
            case .success(let validated):
                chain = validated
                chainCache.insert(validated, for: cacheKey.owned())
            case .failure(let error):
                return error
            }
        }

        return ES256Signature.failure(of: jws, key: chain.leafKey, signer: "the leaf certificate's key (x5c[0])")
    }

    /// Data that says it was signed locally (environment Xcode or LocalTesting) is verified only
    /// against an explicitly configured Xcode certificate, and LocalTesting data never.
    private func locallySignedFailure(of jws: CompactJWS, environment: Environment, at instant: Int64, dateDescription: String) -> VerificationError? {
        guard environment == .xcode else {
            return .invalidCertificateChain("The payload says environment LocalTesting: the App Store never signs such data, and no certificate can vouch for it, so it is never verified.")
        }
        guard let xcodePolicy else {
            return .invalidCertificateChain("The payload says environment Xcode: it was signed locally by Xcode's StoreKit Testing, not by the App Store, and no Xcode certificate is configured. To verify it in development, export the certificate from your StoreKit configuration file in Xcode (Editor ▸ Save Public Certificate) and pass it as Configuration.xcodeCertificate (verify-jws --xcode-certificate FILE).")
        }
        let header: JWSHeader
        switch JWSHeader.parse(jws) {
        case .success(let parsed): header = parsed
        case .failure(let error): return error
        }
        switch header.requireCertificateChain().flatMap({ xcodePolicy.validate($0, at: instant, dateDescription: dateDescription) }) {
        case .success(let key): return ES256Signature.failure(of: jws, key: key, signer: "the Xcode certificate's key")
        case .failure(let error): return error
        }
    }

    /// Step 5: bundle ID, App Apple ID, environment.
    func claimsFailure<Payload: SignedPayload>(of payload: Payload) -> VerificationError? {
        guard let claims = payload as? any AppClaims else { return nil }
        if let expected = configuration.bundleId, let claimed = claims.claimedBundleId, claimed != expected {
            return .invalidAppIdentifier("The payload's bundleId is \"\(claimed)\"; this verifier expects \"\(expected)\". The data belongs to another app.")
        }
        if let expected = configuration.bundleId, claims.claimedBundleId == nil, claims.carriesBundleId {
            return .invalidAppIdentifier("The payload has no bundleId; this verifier expects \"\(expected)\".")
        }
        if let expected = configuration.appAppleId, claims.carriesAppAppleId {
            let claimed = claims.claimedAppAppleId
            if claimed != expected, claimed != nil || configuration.environment == .production {
                return .invalidAppIdentifier("The payload's appAppleId is \(claimed.map(String.init) ?? "missing"); this verifier expects \(expected). The data belongs to another app.")
            }
        }
        if let expected = configuration.environment, claims.claimedEnvironment != expected {
            let claimed = claims.claimedEnvironment.map { "\"\($0.rawValue)\"" } ?? "missing"
            return .invalidEnvironment("The payload's environment is \(claimed); this verifier expects \"\(expected.rawValue)\". Use one verifier per environment (Sandbox data is never valid for Production).")
        }
        return nil
    }

    /// A `receiptCreationDate` in a payload whose model does not carry one (the fallback when a
    /// payload has no signedDate).
    static func receiptCreationDate(in payload: JSONDocument) -> Date? {
        guard let index = payload.member("receiptCreationDate", in: 0), payload.nodes[index].kind == .number,
              let milliseconds = payload.double(at: index)
        else { return nil }
        return Date(timeIntervalSince1970: milliseconds / 1000)
    }

    static func seconds(_ date: Date) -> Int64 {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        guard seconds.isFinite else { return 0 }
        return Int64(max(-9.0e15, min(9.0e15, seconds)))
    }
}
