import CAppStoreOpenSSL
import Foundation

/// Apple's rules for the certificate chain in an App Store JWS, the same as Apple's App Store Server
/// Library applies:
///
/// 1. `x5c` holds exactly three certificates: leaf, intermediate, root.
/// 2. OpenSSL's `X509_verify_cert` builds a path from the leaf through `x5c[1]` to one of the
///    configured trusted roots, at the effective date, in strict X.509 mode unless relaxed, never
///    accepting a partial chain. `x5c[2]` is informational: it is not read, and trust never comes
///    from it.
/// 3. The path is exactly leaf → `x5c[1]` → trusted root.
/// 4. The leaf carries extension 1.2.840.113635.100.6.11.1 and the intermediate
///    1.2.840.113635.100.6.2.1.
/// 5. The leaf's key is a P-256 key (the ES256 curve).
struct AppleChainPolicy: Sendable {
    let trustStore: TrustStore
    /// Whether OpenSSL's strict X.509 checks (`X509_V_FLAG_X509_STRICT`) apply.
    let strict: Bool
    /// Intermediates (by DER) already validated to a trusted root: a new leaf under one of them is
    /// validated against it alone, which costs one certificate signature check.
    let validatedIssuers: LRUCache<Data, ValidatedIssuer>

    init(trustStore: TrustStore, strict: Bool, issuerCacheCapacity: Int = 16) {
        self.trustStore = trustStore
        self.strict = strict
        self.validatedIssuers = LRUCache(capacity: issuerCacheCapacity)
    }

    /// Validates the DER certificates `chain` at `instant` (seconds since 1970).
    ///
    /// - Parameter dateDescription: how the instant was chosen, for messages ("the payload's signedDate").
    func validate(_ chain: [Data], at instant: Int64, dateDescription: String) -> Result<ValidatedChain, VerificationError> {
        guard chain.count == 3 else {
            return .failure(.invalidCertificateChain("The x5c header holds \(chain.count) certificate\(chain.count == 1 ? "" : "s"); App Store data carries exactly three: [leaf, intermediate, root]."))
        }
        let leaf: X509Certificate
        do {
            leaf = try X509Certificate(derEncoded: chain[0])
        } catch {
            return .failure(.invalidCertificateChain("x5c[0] (the leaf) is not a DER certificate: \(error.message)."))
        }

        let validity: Range<Int64>
        if let issuer = validatedIssuers.value(for: chain[1], where: { $0.validity.contains(instant) }) {
            // The intermediate's path to a trusted root was validated before and holds at this
            // instant: OpenSSL validates the leaf against the intermediate alone, and x5c[1] (the
            // same bytes) need not even be parsed again.
            switch pathValidation(leaf: leaf, intermediate: issuer.certificate, store: issuer.store, partialChain: true, at: instant, dateDescription: dateDescription) {
            case .failure(let error): return .failure(error)
            case .success(let window): validity = window.all.clamped(to: issuer.validity)
            }
        } else {
            let intermediate: X509Certificate
            do {
                intermediate = try X509Certificate(derEncoded: chain[1])
            } catch {
                return .failure(.invalidCertificateChain("x5c[1] (the intermediate) is not a DER certificate: \(error.message)."))
            }
            switch pathValidation(leaf: leaf, intermediate: intermediate, store: trustStore, partialChain: false, at: instant, dateDescription: dateDescription) {
            case .failure(let error): return .failure(error)
            case .success(let window):
                validity = window.all
                guard intermediate.hasExtension(AppleMarkerExtension.worldwideDeveloperRelationsIntermediate) else {
                    return .failure(.invalidCertificateChain("The intermediate (x5c[1], \(intermediate.subject)) lacks Apple's WWDR intermediate marker extension \(AppleMarkerExtension.worldwideDeveloperRelationsIntermediate)."))
                }
                if validatedIssuers.capacity > 0, let store = try? TrustStore(validatedAnchors: [intermediate], names: trustStore.roots) {
                    validatedIssuers.insert(ValidatedIssuer(certificate: intermediate, store: store, validity: window.issuers), for: chain[1])
                }
            }
        }

        guard leaf.hasExtension(AppleMarkerExtension.receiptSigningLeaf) else {
            return .failure(.invalidCertificateChain("The leaf (x5c[0], \(leaf.subject)) lacks Apple's App Store signing marker extension \(AppleMarkerExtension.receiptSigningLeaf); it is not an App Store signing certificate."))
        }
        let key: PublicKey
        do {
            key = try leaf.publicKey()
        } catch {
            return .failure(.invalidCertificateChain("The leaf's public key cannot be read: \(error.message)."))
        }
        guard key.curve == .p256 else {
            return .failure(.invalidCertificateChain("The leaf's key is \(key.curve); ES256 signatures need a P-256 key."))
        }
        guard !validity.isEmpty else {
            return .failure(.invalidCertificateChain("The chain's certificates have no common validity period."))
        }
        return .success(ValidatedChain(leafKey: key, validity: validity))
    }

    /// The validity windows of a validated path: of every certificate, and of the issuers only.
    private struct Windows {
        var all: Range<Int64>
        var issuers: Range<Int64>
    }

    /// Runs OpenSSL's path validation of `leaf` → `intermediate` → an anchor in `store`, and checks
    /// the path has exactly that shape.
    private func pathValidation(leaf: X509Certificate, intermediate: X509Certificate, store: TrustStore, partialChain: Bool, at instant: Int64, dateDescription: String) -> Result<Windows, VerificationError> {
        var error = asv_error()
        var chainLength = 0
        var matches: UInt32 = 0
        var validFrom: Int64 = 0, validUntil: Int64 = 0, issuersFrom: Int64 = 0, issuersUntil: Int64 = 0
        var untrusted: [OpaquePointer?] = [intermediate.pointer]
        let verdict = untrusted.withUnsafeMutableBufferPointer { buffer in
            asv_verify_chain(
                store.pointer, leaf.pointer, buffer.baseAddress, partialChain ? 0 : 1, instant, strict ? 1 : 0,
                partialChain ? 1 : 0, &chainLength, &matches, &validFrom, &validUntil, &issuersFrom, &issuersUntil, &error)
        }
        withExtendedLifetime((leaf, intermediate, store)) {}
        guard verdict == 1 else {
            let failure = OpenSSLFailure(error)
            guard verdict == 0 else {
                return .failure(.invalidCertificateChain("Path validation could not run: \(failure.message)."))
            }
            return .failure(.invalidCertificateChain(describe(failure, leaf: leaf, intermediate: intermediate, instant: instant, dateDescription: dateDescription)))
        }
        // A partial chain ends at the intermediate itself (the store's only anchor); a full one at a root.
        let expectedLength = partialChain ? 2 : 3
        guard chainLength == expectedLength, matches & 0b1 == 0b1, partialChain || matches & 0b10 == 0b10 else {
            if !partialChain, chainLength == 2 {
                return .failure(.invalidCertificateChain("The leaf (x5c[0], \(leaf.subject)) is issued directly by a trusted root, not by x5c[1] (\(intermediate.subject)); App Store chains are exactly leaf → intermediate → Apple root."))
            }
            return .failure(.invalidCertificateChain("The path OpenSSL built from the leaf (x5c[0], \(leaf.subject)) is not leaf → x5c[1] (\(intermediate.subject)) → trusted root; App Store chains are exactly that shape."))
        }
        guard validFrom < validUntil, issuersFrom < issuersUntil else {
            return .failure(.invalidCertificateChain("The chain's certificates have no common validity period."))
        }
        return .success(Windows(all: validFrom..<validUntil, issuers: issuersFrom..<issuersUntil))
    }

    /// A sentence for a failed path validation: which certificate, which check, which date.
    private func describe(_ failure: OpenSSLFailure, leaf: X509Certificate, intermediate: X509Certificate, instant: Int64, dateDescription: String) -> String {
        let certificate: X509Certificate?
        let position: String
        switch failure.depth {
        case 0: (certificate, position) = (leaf, "the leaf (x5c[0], \(leaf.subject))")
        case 1: (certificate, position) = (intermediate, "the intermediate (x5c[1], \(intermediate.subject))")
        case 2: (certificate, position) = (nil, "the root")
        default: (certificate, position) = (nil, "the chain")
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
            sentence += " The chain does not lead to a configured trusted root (\(trustStore.roots.map(\.name).joined(separator: ", "))). If this data comes from Xcode or another PKI, trust its root explicitly."
        default:
            break
        }
        return sentence
    }
}
