import CAppStoreOpenSSL
import Foundation

/// Apple's rules for the certificate chain embedded in an app receipt (PKCS#7), the same shape and
/// marker rules as ``AppleChainPolicy`` applies to a JWS's `x5c`, with an RSA leaf:
///
/// 1. The receipt embeds exactly three certificates: leaf (the signer), intermediate, root.
/// 2. OpenSSL's `X509_verify_cert` builds a path from the leaf through the embedded intermediate to
///    one of the configured receipt roots (default: Apple Root CA), at the effective date, in strict
///    X.509 mode unless relaxed, never accepting a partial chain. The embedded root is informational:
///    trust never comes from it.
/// 3. The path is exactly leaf → embedded intermediate → trusted root.
/// 4. The leaf carries extension 1.2.840.113635.100.6.11.1 and the intermediate 1.2.840.113635.100.6.2.1.
/// 5. The leaf's key is an RSA key.
///
/// Its `validate` has the shape of ``AppleChainPolicy``'s, so that it can become
/// `AppleChainPolicy(rules: .appReceipt)` once that policy is parameterised.
struct ReceiptChainPolicy: Sendable {
    let trustStore: TrustStore
    /// Whether OpenSSL's strict X.509 checks (`X509_V_FLAG_X509_STRICT`) apply.
    let strict: Bool

    /// Validates the embedded certificates `chain` ([leaf, intermediate, root], DER) at `instant`.
    ///
    /// - Parameter dateDescription: how the instant was chosen, for messages ("the receipt's creation date").
    func validate(_ chain: [Data], at instant: Int64, dateDescription: String) -> Result<ValidatedChain, VerificationError> {
        guard chain.count == 3 else {
            return .failure(.invalidCertificateChain("The receipt embeds \(chain.count) certificate\(chain.count == 1 ? "" : "s"); App Store receipts embed exactly three: leaf, intermediate, root."))
        }
        let leaf: X509Certificate
        let intermediate: X509Certificate
        do {
            leaf = try X509Certificate(derEncoded: chain[0])
        } catch {
            return .failure(.invalidCertificateChain("The receipt's signing certificate (embedded certificate 0) does not parse: \(error.message)."))
        }
        do {
            intermediate = try X509Certificate(derEncoded: chain[1])
        } catch {
            return .failure(.invalidCertificateChain("The receipt's intermediate (embedded certificate 1) does not parse: \(error.message)."))
        }

        var error = asv_error()
        var chainLength = 0
        var matches: UInt32 = 0
        var validFrom: Int64 = 0, validUntil: Int64 = 0, issuersFrom: Int64 = 0, issuersUntil: Int64 = 0
        var untrusted: [OpaquePointer?] = [intermediate.pointer]
        let verdict = untrusted.withUnsafeMutableBufferPointer { buffer in
            asv_verify_chain(
                trustStore.pointer, leaf.pointer, buffer.baseAddress, 1, instant, strict ? 1 : 0, 0,
                &chainLength, &matches, &validFrom, &validUntil, &issuersFrom, &issuersUntil, &error)
        }
        withExtendedLifetime((leaf, intermediate)) {}
        guard verdict == 1 else {
            let failure = OpenSSLFailure(error)
            guard verdict == 0 else {
                return .failure(.invalidCertificateChain("Path validation of the receipt's chain could not run: \(failure.message)."))
            }
            return .failure(.invalidCertificateChain(describe(failure, leaf: leaf, intermediate: intermediate, instant: instant, dateDescription: dateDescription)))
        }
        guard chainLength == 3, matches & 0b11 == 0b11 else {
            return .failure(.invalidCertificateChain("The path OpenSSL built from the receipt's signing certificate (\(leaf.subject)) is not leaf → embedded intermediate (\(intermediate.subject)) → trusted root; receipt chains are exactly that shape."))
        }
        guard intermediate.hasExtension(AppleMarkerExtension.worldwideDeveloperRelationsIntermediate) else {
            return .failure(.invalidCertificateChain("The receipt's intermediate (\(intermediate.subject)) lacks Apple's WWDR intermediate marker extension \(AppleMarkerExtension.worldwideDeveloperRelationsIntermediate)."))
        }
        guard leaf.hasExtension(AppleMarkerExtension.receiptSigningLeaf) else {
            return .failure(.invalidCertificateChain("The receipt's signing certificate (\(leaf.subject)) lacks Apple's receipt-signing marker extension \(AppleMarkerExtension.receiptSigningLeaf); it is not an App Store receipt signing certificate."))
        }
        let key: PublicKey
        do {
            key = try leaf.publicKey()
        } catch {
            return .failure(.invalidCertificateChain("The receipt's signing certificate's public key cannot be read: \(error.message)."))
        }
        guard key.isRSA else {
            return .failure(.invalidCertificateChain("The receipt's signing certificate (\(leaf.subject)) holds \(key.curve == .notElliptic ? "a key that is not RSA" : "a \(key.curve) key"); app receipts are signed with RSA."))
        }
        guard validFrom < validUntil else {
            return .failure(.invalidCertificateChain("The receipt chain's certificates have no common validity period."))
        }
        return .success(ValidatedChain(leafKey: key, validity: validFrom..<validUntil))
    }

    /// A sentence for a failed path validation: which certificate, which check, which date.
    private func describe(_ failure: OpenSSLFailure, leaf: X509Certificate, intermediate: X509Certificate, instant: Int64, dateDescription: String) -> String {
        let certificate: X509Certificate?
        let position: String
        switch failure.depth {
        case 0: (certificate, position) = (leaf, "the receipt's signing certificate (\(leaf.subject))")
        case 1: (certificate, position) = (intermediate, "the receipt's intermediate (\(intermediate.subject))")
        case 2: (certificate, position) = (nil, "the root")
        default: (certificate, position) = (nil, "the receipt's chain")
        }
        var sentence = "Path validation failed at \(position): \(failure.message) (OpenSSL X509_V_ERR \(failure.x509Error))."
        let when = DateText.iso8601(seconds: instant)
        switch failure.x509Error {
        case 9, 10:  // X509_V_ERR_CERT_NOT_YET_VALID, X509_V_ERR_CERT_HAS_EXPIRED
            if let certificate, let validity = try? certificate.validity() {
                sentence += " It is valid from \(DateText.iso8601(validity.lowerBound)) to \(DateText.iso8601(validity.upperBound)); the effective date is \(when) (\(dateDescription))."
            } else {
                sentence += " The effective date is \(when) (\(dateDescription))."
            }
            sentence += " To check at another instant, set the verifier's effective-date policy."
        case 2, 20, 19, 21:  // unable to get issuer (locally), self-signed in chain, unable to verify leaf signature
            sentence += " The chain does not lead to a configured receipt root (\(trustStore.roots.map(\.name).joined(separator: ", "))). Receipts chain to Apple Root CA, not to Apple Root CA - G3; for Xcode receipts configure the StoreKit certificate."
        default:
            break
        }
        return sentence
    }
}
