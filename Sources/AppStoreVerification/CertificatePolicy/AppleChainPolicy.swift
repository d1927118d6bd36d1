import Foundation

/// Apple's rules for the certificate chain of signed data, the same as Apple's App Store Server
/// Library applies, parameterised by ``AppleChainRules`` for each kind of data:
///
/// 1. the chain holds exactly three certificates: leaf, intermediate, root;
/// 2. OpenSSL's `X509_verify_cert` builds a path from the leaf through the intermediate to one of
///    the configured trusted roots, at the effective date, in strict X.509 mode unless relaxed,
///    never accepting a partial chain (``PathValidation``). The third certificate is informational:
///    it is not read, and trust never comes from it;
/// 3. the path is exactly leaf → intermediate → trusted root;
/// 4. the leaf and the intermediate carry the rules' marker extensions;
/// 5. the leaf's key is the kind the rules accept.
///
/// Intermediates that passed are remembered (``ValidatedIssuerCache``): a new leaf under one is
/// validated against it alone.
struct AppleChainPolicy: Sendable {
    let trustStore: TrustStore
    let rules: AppleChainRules
    /// Whether OpenSSL's strict X.509 checks (`X509_V_FLAG_X509_STRICT`) apply.
    let strict: Bool
    let validatedIssuers: ValidatedIssuerCache
    let messages: ChainFailureMessage

    init(trustStore: TrustStore, rules: AppleChainRules, strict: Bool, issuerCacheCapacity: Int = 16) {
        self.trustStore = trustStore
        self.rules = rules
        self.strict = strict
        self.validatedIssuers = ValidatedIssuerCache(capacity: issuerCacheCapacity)
        self.messages = ChainFailureMessage(rules: rules, trustedRoots: trustStore.roots)
    }

    /// Validates the DER certificates `chain` ([leaf, intermediate, root]) at `instant`.
    func validate(_ chain: [Data], at instant: EffectiveInstant) throws(VerificationError) -> ValidatedChain {
        guard chain.count == 3 else {
            throw .invalidCertificateChain(messages.wrongCount(chain.count))
        }
        let leaf: X509Certificate
        do {
            leaf = try X509Certificate(derEncoded: chain[0])
        } catch {
            throw .invalidCertificateChain(messages.notACertificate(position: rules.leafPosition, role: "leaf", error))
        }

        let intermediate: X509Certificate
        let root: X509Certificate?
        let validity: Range<Int64>
        if let issuer = validatedIssuers.issuer(chain[1], at: instant.seconds) {
            // The intermediate's path to a trusted root was validated before and holds at this
            // instant: OpenSSL validates the leaf against the intermediate alone.
            let report = try validatePath(leaf: leaf, intermediate: issuer.certificate, anchors: issuer.store, partialChain: true, at: instant)
            (intermediate, root) = (issuer.certificate, issuer.root)
            validity = report.validity.clamped(to: issuer.validity)
        } else {
            do {
                intermediate = try X509Certificate(derEncoded: chain[1])
            } catch {
                throw .invalidCertificateChain(messages.notACertificate(position: rules.intermediatePosition, role: "intermediate", error))
            }
            let report = try validatePath(leaf: leaf, intermediate: intermediate, anchors: trustStore, partialChain: false, at: instant)
            guard intermediate.hasExtension(rules.intermediateMarker) else {
                throw .invalidCertificateChain(messages.missingIntermediateMarker(intermediate))
            }
            root = trustStore.root(thatIssued: intermediate)
            validity = report.validity
            validatedIssuers.remember(intermediate, root: root, validity: report.issuersValidity, names: trustStore.roots)
        }

        guard leaf.hasExtension(rules.leafMarker) else {
            throw .invalidCertificateChain(messages.missingLeafMarker(leaf))
        }
        let key: PublicKey
        do {
            key = try leaf.publicKey()
        } catch {
            throw .invalidCertificateChain(messages.unreadableLeafKey(error))
        }
        guard rules.leafKey.accepts(key.kind) else {
            throw .invalidCertificateChain(messages.wrongLeafKey(key.kind))
        }
        guard !validity.isEmpty else {
            throw .invalidCertificateChain(messages.noCommonValidity)
        }
        return ValidatedChain(leaf: leaf, intermediate: intermediate, root: root, leafKey: key, validity: validity)
    }

    /// Runs OpenSSL's path validation and checks the path has exactly the expected shape: a partial
    /// chain ends at the remembered intermediate (length 2), a full one at a root (length 3).
    private func validatePath(leaf: X509Certificate, intermediate: X509Certificate, anchors: TrustStore, partialChain: Bool, at instant: EffectiveInstant) throws(VerificationError) -> PathValidation.Report {
        guard EffectiveInstant.certificateTimes.contains(instant.seconds) else {
            throw .invalidCertificateChain("The effective date, \(instant.text), is out of the range certificate times can express (years 0000 to 9999), so no certificate can be valid then. A date this far off in signed data is wrong; to check the chain at another time, set Configuration.effectiveDate.")
        }
        let report: PathValidation.Report
        do {
            report = try PathValidation.validate(
                leaf: leaf, intermediate: intermediate, anchors: anchors,
                partialChain: partialChain, strict: strict, at: instant.seconds)
        } catch {
            switch error {
            case .internalError(let message):
                throw .invalidCertificateChain(messages.couldNotRun(message))
            case .rejected(let reason, let x509Error, let depth, let message):
                throw .invalidCertificateChain(messages.rejected(reason: reason, x509Error: x509Error, depth: depth, message: message, leaf: leaf, intermediate: intermediate, at: instant))
            }
        }
        let expectedLength = partialChain ? 2 : 3
        guard report.chainLength == expectedLength, report.matches(0), partialChain || report.matches(1) else {
            if !partialChain, report.chainLength == 2 {
                throw .invalidCertificateChain(messages.issuedDirectlyByRoot(leaf: leaf, intermediate: intermediate))
            }
            throw .invalidCertificateChain(messages.wrongShape(leaf: leaf, intermediate: intermediate))
        }
        guard !report.validity.isEmpty, !report.issuersValidity.isEmpty else {
            throw .invalidCertificateChain(messages.noCommonValidity)
        }
        return report
    }
}
