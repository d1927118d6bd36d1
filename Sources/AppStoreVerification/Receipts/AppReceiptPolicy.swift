import Foundation

/// How a verifier checks app receipts: the receipt chain policy, a cache of validated chains, and
/// the Xcode receipt certificate when one is configured.
struct AppReceiptPolicy: Sendable {
    let chainPolicy: AppleChainPolicy
    /// Validated chains by the exact bytes of the certificates a receipt embeds: a receipt that
    /// embeds certificates seen before costs only its RSA signature check, within the recorded
    /// validity window (see ``ReceiptEnvelope``).
    let chainCache: ValidatedChainCache<ReceiptCertificatesKey, ValidatedChain>
    let xcodePolicy: XcodeCertificatePolicy?

    init(configuration: SignedDataVerifier.Configuration) throws(VerifierConfigurationError) {
        guard !configuration.trustedReceiptRoots.isEmpty else {
            throw VerifierConfigurationError(.noTrustedRoot, "No receipt root is configured; no app receipt could ever verify. Leave the default (Apple Root CA) or add a root to trustedReceiptRoots.")
        }
        chainPolicy = AppleChainPolicy(trustStore: try TrustStore(roots: configuration.trustedReceiptRoots), rules: .appReceipt, strict: configuration.strictChecks)
        chainCache = ValidatedChainCache(capacity: min(configuration.chainCacheCapacity, 16))
        xcodePolicy = try configuration.xcodeReceiptCertificate.map { root throws(VerifierConfigurationError) in try XcodeCertificatePolicy(root, rules: .appReceipt) }
    }

    /// What ``verify(_:receipt:at:)`` checked the receipt with.
    struct Checked {
        /// The App Store chain, validated; `nil` for an Xcode receipt.
        let chain: ValidatedChain?
        /// The embedded certificates; `nil` for an Xcode receipt.
        let certificates: ReceiptCertificatesKey?
    }

    /// Checks the receipt's chain (or its Xcode certificate) at `instant`, then its signature.
    ///
    /// - Throws: why the signature or chain does not hold.
    func verify(_ signedData: ReceiptSignedData, receipt: AppReceipt, at instant: EffectiveInstant) throws(VerificationError) -> Checked {
        let checked: Checked
        let certificates = signedData.certificates
        let signer = signedData.signer
        if receipt.environment == .xcode {
            guard let xcodePolicy else {
                throw .invalidCertificateChain("The receipt says environment Xcode: it was signed locally by Xcode's StoreKit Testing, not by the App Store, and no Xcode receipt certificate is configured. To verify it in development, configure Xcode's \"StoreKit\" receipt certificate as Configuration.xcodeReceiptCertificate (verify-jws --type app-receipt --xcode-certificate FILE).")
            }
            try xcodePolicy.validate(certificates, at: instant)
            checked = Checked(chain: nil, certificates: nil)
        } else {
            guard signer.certificate_index == 0 else {
                throw .invalidCertificateChain("The receipt's signer is embedded certificate \(signer.certificate_index); App Store receipts embed the signing certificate first, then the intermediate and the root.")
            }
            guard certificates.count == 3 else {
                throw .invalidCertificateChain(chainPolicy.messages.wrongCount(certificates.count))
            }
            let key = signedData.certificatesKey
            if let cached = chainCache.entry(for: key, at: instant.seconds) {
                checked = Checked(chain: cached, certificates: key)
            } else {
                let chain = try chainPolicy.validate(certificates, at: instant)
                chainCache.insert(chain, for: key)
                checked = Checked(chain: chain, certificates: key)
            }
        }
        try verifySignature(of: signedData)
        return checked
    }

    /// The chain validated for an earlier receipt that embedded exactly `certificates`, whatever
    /// its validity window (the caller checks it at the receipt's effective date).
    func cachedChain(for certificates: ReceiptCertificatesKey) -> ValidatedChain? {
        chainCache.entry(for: certificates)
    }

    /// Checks the signer's signature over the receipt's content.
    func verifySignature(of signedData: ReceiptSignedData) throws(VerificationError) {
        do {
            try signedData.verifySignature()
        } catch {
            throw .invalidSignature("The receipt's PKCS#7 signature does not verify: \(error.message). The receipt was altered after signing, or was not signed by its embedded certificate.")
        }
    }
}
