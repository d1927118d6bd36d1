import Foundation

/// The rule for data signed locally by Xcode's StoreKit Testing.
///
/// Xcode signs with one self-signed certificate ("StoreKit Testing in Xcode", header `kid`
/// `Apple_Xcode_Key`, an `x5c` of length one). Apple's server library skips verification for the
/// Xcode environment altogether; this policy instead verifies such data against the certificate a
/// developer exported from Xcode and configured explicitly: the `x5c` must be exactly that
/// certificate, valid at the effective date, and its key must verify the signature. It applies to
/// payloads whose environment is `Xcode` and to nothing else.
struct XcodeCertificatePolicy: Sendable {
    let certificate: X509Certificate
    let key: PublicKey
    let validity: ClosedRange<Date>

    init(_ root: TrustedRoot) throws(VerifierConfigurationError) {
        do {
            certificate = try X509Certificate(derEncoded: root.derEncoded)
            key = try certificate.publicKey()
            validity = try certificate.validity()
        } catch {
            throw VerifierConfigurationError(.invalidCertificate, "The Xcode certificate \(root.name) cannot be used: \(error.message).")
        }
        guard key.kind == .p256 else {
            throw VerifierConfigurationError(.unsupportedKey, "The Xcode certificate \(root.name) has \(key.kind); Xcode signs JWS with a P-256 key (ES256).")
        }
    }

    /// Checks that `chain` is the configured certificate and valid at `instant`, and returns its key.
    func validate(_ chain: [Data], at instant: EffectiveInstant) throws(VerificationError) -> PublicKey {
        guard chain.count == 1 else {
            throw .invalidCertificateChain("The payload says environment Xcode, but its x5c holds \(chain.count) certificates; Xcode signs with exactly one, the StoreKit Testing certificate.")
        }
        guard chain[0] == certificate.derEncoded else {
            throw .invalidCertificateChain("The payload says environment Xcode, but x5c[0] is not the configured Xcode certificate (\(certificate.subject)). Export the certificate of the Xcode project that signed this data and configure it.")
        }
        let notBefore = Int64(validity.lowerBound.timeIntervalSince1970)
        let notAfter = Int64(validity.upperBound.timeIntervalSince1970)
        guard instant.seconds >= notBefore, instant.seconds < notAfter else {
            throw .invalidCertificateChain("The Xcode certificate (\(certificate.subject)) is valid from \(DateText.iso8601(validity.lowerBound)) to \(DateText.iso8601(validity.upperBound)); the effective date is \(instant.text).")
        }
        return key
    }
}
