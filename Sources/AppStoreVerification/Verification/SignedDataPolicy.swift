import Foundation

/// How a verifier checks the chain and signature of App Store JWS (the counterpart of
/// ``AppReceiptPolicy`` for app receipts): the chain policy with its validated-issuer cache, the
/// cache of validated chains by header, and the Xcode certificate when one is configured.
struct SignedDataPolicy: Sendable {
    let chainPolicy: AppleChainPolicy
    let chainCache: ValidatedChainCache<HeaderSegmentKey, SignedDataChainEntry>
    let xcodePolicy: XcodeCertificatePolicy?

    init(configuration: SignedDataVerifier.Configuration) throws(VerifierConfigurationError) {
        chainPolicy = AppleChainPolicy(
            trustStore: try TrustStore(roots: configuration.trustedRoots), rules: .appStoreSignedData,
            strict: configuration.strictChecks, issuerCacheCapacity: min(configuration.chainCacheCapacity, 16))
        chainCache = ValidatedChainCache(capacity: configuration.chainCacheCapacity)
        xcodePolicy = try configuration.xcodeCertificate.map { root throws(VerifierConfigurationError) in try XcodeCertificatePolicy(root, rules: .signedData) }
    }

    /// Checks `jws`'s header, chain and signature at `instant`. Returns the validated chain with
    /// what the verifier remembers of it — online (`online`), the revocation subjects, derived once
    /// from the parsed certificates — or `nil` for data signed locally (environment Xcode), which
    /// has no App Store chain.
    func verify(_ jws: CompactJWS, environment: AppStoreEnvironment?, at instant: EffectiveInstant, online: Bool) throws(VerificationError) -> SignedDataChainEntry? {
        if let environment, environment == .xcode || environment == .localTesting {
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
        let entry = SignedDataChainEntry(
            chain: chain, headerDigest: try? jws.withHeaderAndDot({ (bytes) throws(OpenSSLFailure) in try SHA256Prefix(absorbing: bytes) }),
            revocationSubjects: online ? RevocationSubjects.of(chain) : nil)
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
