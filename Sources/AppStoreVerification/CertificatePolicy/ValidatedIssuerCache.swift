import Foundation

/// Intermediates whose path to a trusted root has been validated, by their DER bytes.
///
/// A new leaf under a remembered intermediate is validated against that intermediate alone (an
/// OpenSSL partial chain), which costs one certificate signature check instead of a whole path
/// validation, and the intermediate's bytes need not even be parsed again.
struct ValidatedIssuerCache: Sendable {
    /// An intermediate whose path to a trusted root has been validated.
    struct Issuer: ValidityWindowed {
        /// The intermediate, parsed.
        let certificate: X509Certificate
        /// The trusted root it chains to.
        let root: X509Certificate?
        /// A trust store whose only anchor is the intermediate.
        let store: TrustStore
        /// The seconds since 1970, [lower, upper), in which the intermediate and its root are valid.
        let validity: Range<Int64>
    }

    private let entries: ValidatedChainCache<Data, Issuer>

    init(capacity: Int) {
        entries = ValidatedChainCache(capacity: capacity)
    }

    /// How many intermediates are remembered.
    var count: Int { entries.count }

    /// The remembered intermediate with these bytes, if its validation holds at `instant`.
    func issuer(_ derEncoded: Data, at instant: Int64) -> Issuer? {
        entries.entry(for: derEncoded, at: instant)
    }

    /// Remembers `intermediate`, validated to `root` for the window `validity`.
    func remember(_ intermediate: X509Certificate, root: X509Certificate?, validity: Range<Int64>, names: [TrustedRoot]) {
        guard entries.isEnabled, let store = try? TrustStore(validatedAnchors: [intermediate], names: names) else { return }
        entries.insert(Issuer(certificate: intermediate, root: root, store: store, validity: validity), for: intermediate.derEncoded)
    }
}
