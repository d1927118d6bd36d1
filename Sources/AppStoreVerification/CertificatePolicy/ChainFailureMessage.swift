internal import CAppStoreOpenSSL

/// The sentences that explain why a chain failed Apple's chain policy: which certificate, which
/// check, which date, and what to do.
struct ChainFailureMessage {
    let rules: AppleChainRules
    let trustedRoots: [TrustedRoot]

    func leaf(_ certificate: X509Certificate) -> String { "the leaf (\(rules.leafPosition), \(certificate.subject))" }
    func intermediate(_ certificate: X509Certificate) -> String { "the intermediate (\(rules.intermediatePosition), \(certificate.subject))" }

    func wrongCount(_ count: Int) -> String {
        "\(rules.chainSource) holds \(count) certificate\(count == 1 ? "" : "s"); \(rules.signedDataName) carry exactly three: [leaf, intermediate, root]."
    }

    func notACertificate(position: String, role: String, _ failure: OpenSSLFailure) -> String {
        "\(position) (the \(role)) is not a DER certificate: \(failure.message)."
    }

    func missingIntermediateMarker(_ certificate: X509Certificate) -> String {
        "The intermediate (\(rules.intermediatePosition), \(certificate.subject)) lacks Apple's WWDR intermediate marker extension \(rules.intermediateMarker)."
    }

    func missingLeafMarker(_ certificate: X509Certificate) -> String {
        "The leaf (\(rules.leafPosition), \(certificate.subject)) lacks Apple's signing marker extension \(rules.leafMarker); it is not a certificate Apple signs \(rules.signedDataName) with."
    }

    func unreadableLeafKey(_ failure: OpenSSLFailure) -> String {
        "The leaf's public key cannot be read: \(failure.message)."
    }

    func wrongLeafKey(_ kind: KeyKind) -> String {
        "The leaf's key is \(kind); \(rules.signedDataName) need \(rules.leafKey)."
    }

    let noCommonValidity = "The chain's certificates have no common validity period."

    func issuedDirectlyByRoot(leaf certificate: X509Certificate, intermediate other: X509Certificate) -> String {
        "The leaf (\(rules.leafPosition), \(certificate.subject)) is issued directly by a trusted root, not by \(rules.intermediatePosition) (\(other.subject)); Apple's chains are exactly leaf → intermediate → Apple root."
    }

    func wrongShape(leaf certificate: X509Certificate, intermediate other: X509Certificate) -> String {
        "The path OpenSSL built from the leaf (\(rules.leafPosition), \(certificate.subject)) is not leaf → \(rules.intermediatePosition) (\(other.subject)) → trusted root; Apple's chains are exactly that shape."
    }

    func couldNotRun(_ message: String) -> String { "Path validation could not run: \(message)." }

    /// A failed path validation.
    func rejected(reason: asv_chain_failure, x509Error: Int32, depth: Int32, message: String, leaf: X509Certificate, intermediate: X509Certificate, at instant: EffectiveInstant) -> String {
        let certificate: X509Certificate?
        let position: String
        switch depth {
        case 0: (certificate, position) = (leaf, self.leaf(leaf))
        case 1: (certificate, position) = (intermediate, self.intermediate(intermediate))
        case 2: (certificate, position) = (nil, "the root")
        default: (certificate, position) = (nil, "the chain")
        }
        var sentence = "Path validation failed at \(position): \(message) (OpenSSL X509_V_ERR \(x509Error))."
        switch reason {
        case ASV_CHAIN_OUTSIDE_VALIDITY:
            if let certificate, let validity = try? certificate.validity() {
                sentence += " It is valid from \(DateText.iso8601(validity.lowerBound)) to \(DateText.iso8601(validity.upperBound)); the effective date is \(instant.text)."
            } else {
                sentence += " The effective date is \(instant.text)."
            }
            sentence += " To check at another instant, set the verifier's effective-date policy."
        case ASV_CHAIN_UNTRUSTED:
            sentence += " The chain does not lead to a configured trusted root (\(trustedRoots.map(\.name).joined(separator: ", "))). If this data comes from Xcode or another PKI, trust its root explicitly."
        default:
            break
        }
        return sentence
    }
}
