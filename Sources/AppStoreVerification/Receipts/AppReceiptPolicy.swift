import Foundation

/// How a verifier checks app receipts: the receipt chain policy, a cache of validated chains, and
/// the Xcode receipt certificate when one is configured.
struct AppReceiptPolicy: Sendable {
    let chainPolicy: ReceiptChainPolicy
    /// Validated chains by their exact leaf and intermediate DER: a receipt signed by a leaf seen
    /// before costs only its RSA signature check, within the recorded validity window.
    let chainCache: LRUCache<ReceiptChainKey, ValidatedChain>
    let xcodePolicy: XcodeReceiptCertificatePolicy?

    init(configuration: SignedDataVerifier.Configuration) throws(VerifierConfigurationError) {
        guard !configuration.receiptRoots.isEmpty else {
            throw VerifierConfigurationError("No receipt root is configured; no app receipt could ever verify. Leave the default (Apple Root CA) or add a root to receiptRoots.")
        }
        chainPolicy = ReceiptChainPolicy(trustStore: try TrustStore(roots: configuration.receiptRoots), strict: configuration.strictChecks)
        chainCache = LRUCache(capacity: min(configuration.chainCacheCapacity, 16))
        xcodePolicy = try configuration.xcodeReceiptCertificate.map { root throws(VerifierConfigurationError) in try XcodeReceiptCertificatePolicy(root) }
    }

    /// Why the receipt's signature or chain does not hold at `instant`, or `nil` when they do.
    func cryptographicFailure(of signedData: ReceiptSignedData, receipt: AppReceipt, at instant: Int64, dateDescription: String) -> VerificationError? {
        let certificates = signedData.certificates
        let signer = signedData.signer
        if receipt.environment == .xcode {
            guard let xcodePolicy else {
                return .invalidCertificateChain("The receipt says environment Xcode: it was signed locally by Xcode's StoreKit Testing, not by the App Store, and no Xcode receipt certificate is configured. To verify it in development, configure Xcode's \"StoreKit\" receipt certificate as Configuration.xcodeReceiptCertificate (verify-jws --type app-receipt --xcode-certificate FILE).")
            }
            if let failure = xcodePolicy.validate(certificates, at: instant, dateDescription: dateDescription) {
                return failure
            }
        } else {
            guard signer.certificate_index == 0 else {
                return .invalidCertificateChain("The receipt's signer is embedded certificate \(signer.certificate_index); App Store receipts embed the signing certificate first, then the intermediate and the root.")
            }
            guard certificates.count == 3 else {
                return .invalidCertificateChain("The receipt embeds \(certificates.count) certificate\(certificates.count == 1 ? "" : "s"); App Store receipts embed exactly three: leaf, intermediate, root.")
            }
            let key = ReceiptChainKey(leaf: certificates[0], intermediate: certificates[1])
            if chainCache.value(for: key, where: { $0.validity.contains(instant) }) == nil {
                switch chainPolicy.validate(certificates, at: instant, dateDescription: dateDescription) {
                case .success(let chain): chainCache.insert(chain, for: key)
                case .failure(let error): return error
                }
            }
        }
        if case .failure(let failure) = signedData.verifySignature() {
            return .invalidSignature("The receipt's PKCS#7 signature does not verify: \(failure.message). The receipt was altered after signing, or was not signed by its embedded certificate.")
        }
        return nil
    }
}

/// The cache key of a validated receipt chain: the leaf's and the intermediate's exact DER.
struct ReceiptChainKey: Hashable, Sendable {
    let leaf: Data
    let intermediate: Data
}
