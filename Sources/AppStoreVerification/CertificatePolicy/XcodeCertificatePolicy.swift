import Foundation

/// The rule for data signed locally by Xcode's StoreKit Testing.
///
/// Xcode signs with one self-signed certificate: "StoreKit Testing in Xcode" (P-256) for JWS,
/// whose header has `kid` `Apple_Xcode_Key` and an `x5c` of length one, and "StoreKit" (RSA) for
/// app receipts, which embed only that certificate. Apple's server library skips verification for
/// the Xcode environment altogether; this policy instead verifies such data against the certificate
/// a developer exported from Xcode and configured explicitly: the data must embed exactly that
/// certificate, valid at the effective date, and its key must verify the signature. It applies to
/// data whose environment is `Xcode` and to nothing else; ``XcodeCertificateRules`` says what
/// differs between JWS and receipts.
struct XcodeCertificatePolicy: Sendable {
    let rules: XcodeCertificateRules
    let certificate: X509Certificate
    let key: PublicKey
    let validity: ClosedRange<Date>

    init(_ root: TrustedRoot, rules: XcodeCertificateRules) throws(VerifierConfigurationError) {
        self.rules = rules
        do {
            certificate = try X509Certificate(derEncoded: root.derEncoded)
            key = try certificate.publicKey()
            validity = try certificate.validity()
        } catch {
            throw VerifierConfigurationError(.invalidCertificate, "The \(rules.certificateName) \(root.name) cannot be used: \(error.message).")
        }
        guard rules.key.accepts(key.kind) else {
            throw VerifierConfigurationError(.unsupportedKey, "The \(rules.certificateName) \(root.name) has \(key.kind); \(rules.keyAdvice)")
        }
    }

    /// Checks that `chain` is exactly the configured certificate, valid at `instant`, and returns
    /// its key.
    @discardableResult
    func validate(_ chain: [Data], at instant: EffectiveInstant) throws(VerificationError) -> PublicKey {
        guard chain.count == 1 else {
            throw .invalidCertificateChain("\(rules.dataName) says environment Xcode, but \(rules.countMismatch(chain.count)).")
        }
        guard chain[0] == certificate.derEncoded else {
            throw .invalidCertificateChain("\(rules.dataName) says environment Xcode, but \(rules.embeddedPosition) is not the configured \(rules.certificateName) (\(certificate.subject)). Export the certificate of the Xcode project that signed this data and configure it.")
        }
        let notBefore = Int64(validity.lowerBound.timeIntervalSince1970)
        let notAfter = Int64(validity.upperBound.timeIntervalSince1970)
        guard instant.seconds >= notBefore, instant.seconds < notAfter else {
            throw .invalidCertificateChain("The \(rules.certificateName) (\(certificate.subject)) is valid from \(DateText.iso8601(validity.lowerBound)) to \(DateText.iso8601(validity.upperBound)); the effective date is \(instant.text).")
        }
        return key
    }
}
