import Foundation

/// An intermediate whose path to a trusted root has been validated: a store that holds it as the
/// only anchor, so that a new leaf under it is checked with one certificate signature instead of a
/// whole path validation.
struct ValidatedIssuer: Sendable {
    /// The intermediate, parsed.
    let certificate: X509Certificate
    /// A trust store whose only certificate is the intermediate.
    let store: TrustStore
    /// The seconds since 1970, [lower, upper), in which the intermediate and the root it chains to
    /// are both valid.
    let validity: Range<Int64>
}
