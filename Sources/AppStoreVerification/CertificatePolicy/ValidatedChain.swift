import Foundation

/// A certificate chain that passed Apple's chain policy, reduced to what signature checks need.
struct ValidatedChain: Sendable {
    /// The leaf's P-256 public key, parsed once.
    let leafKey: PublicKey
    /// The seconds since 1970, [lower, upper), in which every certificate of the chain is within its
    /// validity period. A JWS whose effective date falls outside must be validated afresh.
    let validity: Range<Int64>
}
