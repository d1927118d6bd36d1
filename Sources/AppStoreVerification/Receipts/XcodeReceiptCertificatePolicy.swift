import Foundation

/// The rule for app receipts signed locally by Xcode's StoreKit Testing.
///
/// Xcode signs receipts with one self-signed RSA certificate, "StoreKit" (unlike its JWS
/// certificate, which is P-256), and embeds only that certificate. Such a receipt is verified only
/// against the certificate a developer configured explicitly
/// (``SignedDataVerifier/Configuration/xcodeReceiptCertificate``): the receipt must embed exactly
/// that certificate, it must be valid at the effective date, and its key must verify the signature.
/// It applies to receipts whose environment is `Xcode` and to nothing else.
struct XcodeReceiptCertificatePolicy: Sendable {
    let certificate: X509Certificate
    let validity: ClosedRange<Date>

    init(_ root: TrustedRoot) throws(VerifierConfigurationError) {
        let key: PublicKey
        do {
            certificate = try X509Certificate(derEncoded: root.derEncoded)
            key = try certificate.publicKey()
            validity = try certificate.validity()
        } catch {
            throw VerifierConfigurationError(.invalidCertificate, "The Xcode receipt certificate \(root.name) cannot be used: \(error.message).")
        }
        guard case .rsa = key.kind else {
            throw VerifierConfigurationError(.unsupportedKey, "The Xcode receipt certificate \(root.name) does not hold an RSA key; Xcode signs app receipts with its RSA \"StoreKit\" certificate (the P-256 \"StoreKit Testing in Xcode\" certificate, for JWS, goes in xcodeCertificate).")
        }
    }

    /// Checks that the receipt embeds exactly the configured certificate, valid at `instant`.
    func validate(_ chain: [Data], at instant: EffectiveInstant) throws(VerificationError) {
        guard chain.count == 1 else {
            throw .invalidCertificateChain("The receipt says environment Xcode, but it embeds \(chain.count) certificates; Xcode embeds exactly one, its StoreKit certificate.")
        }
        guard chain[0] == certificate.derEncoded else {
            throw .invalidCertificateChain("The receipt says environment Xcode, but its signing certificate is not the configured Xcode receipt certificate (\(certificate.subject)). Export the certificate of the Xcode project that signed this receipt and configure it.")
        }
        let notBefore = Int64(validity.lowerBound.timeIntervalSince1970)
        let notAfter = Int64(validity.upperBound.timeIntervalSince1970)
        guard instant.seconds >= notBefore, instant.seconds < notAfter else {
            throw .invalidCertificateChain("The Xcode receipt certificate (\(certificate.subject)) is valid from \(DateText.iso8601(validity.lowerBound)) to \(DateText.iso8601(validity.upperBound)); the effective date is \(instant.text).")
        }
    }
}
