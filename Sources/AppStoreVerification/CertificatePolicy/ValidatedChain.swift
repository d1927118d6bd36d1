import Foundation

/// A certificate chain that passed Apple's chain policy.
struct ValidatedChain: Sendable {
    /// The leaf, parsed.
    let leaf: X509Certificate
    /// The intermediate, parsed.
    let intermediate: X509Certificate
    /// The trusted root the path ends at, when it is known (it is for every configured root).
    let root: X509Certificate?
    /// The leaf's public key, parsed once.
    let leafKey: PublicKey
    /// The seconds since 1970, [lower, upper), in which every certificate of the chain is within its
    /// validity period. Data whose effective date falls outside must be validated afresh.
    let validity: Range<Int64>
}
