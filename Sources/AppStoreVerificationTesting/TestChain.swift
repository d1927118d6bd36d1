import Foundation

/// A certificate chain shaped like Apple's: root → intermediate → leaf, and the key data is signed
/// with (normally the leaf's).
public struct TestChain: Sendable {
    /// The root at the end of the chain data embeds (not trusted when the PKI's variant is
    /// ``TestPKI/Variant/otherRoot``).
    public let root: TestCertificate
    /// The intermediate (Apple Worldwide Developer Relations shaped, marker 1.2.840.113635.100.6.2.1).
    public let intermediate: TestCertificate
    /// The leaf (marker 1.2.840.113635.100.6.11.1; another marker with
    /// ``TestPKI/Variant/leafWithoutMarker``).
    public let leaf: TestCertificate
    /// The key data is signed with: the leaf's own, except with ``TestPKI/Variant/wrongKey``.
    public let signingKey: TestPrivateKey
    /// The root's and intermediate's keys, when known (a chain read from a directory may lack them).
    let rootKey: TestPrivateKey?
    let intermediateKey: TestPrivateKey?

    /// The certificates in the order data embeds them: leaf, intermediate, root.
    public var certificates: [TestCertificate] { [leaf, intermediate, root] }
}
