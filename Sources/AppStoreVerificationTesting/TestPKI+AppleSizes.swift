import Foundation

/// The DER sizes, in bytes, of the three certificates of a chain.
struct CertificateSizes: Sendable, Hashable {
    let leaf: Int
    let intermediate: Int
    let root: Int
}

extension Authority {
    /// The sizes of Apple's real App Store JWS chain (leaf "Prod ECC Mac App Store and iTunes Store
    /// Receipt Signing", Apple Worldwide Developer Relations CA - G6, Apple Root CA - G3): 1,077, 794
    /// and 583 bytes, 4.4 KB of `x5c` once base64-encoded in a JWS header. A test PKI's own
    /// certificates are smaller (P-256 keys, fewer extensions), so the JWS chain is padded to these
    /// sizes: minted data is as large as Apple's, and a body limit too small for Apple's
    /// notifications is too small for minted ones too.
    static let appleJWSSizes = CertificateSizes(leaf: 1_077, intermediate: 794, root: 583)

    /// The text a padding extension repeats.
    static let paddingText = "Test certificate padded to the size of Apple's. "

    /// Issues a certificate as ``TestCertificate/issue(commonName:organization:organizationalUnit:country:key:issuer:serial:notBefore:notAfter:extensions:)``
    /// does and, with a `target`, pads it to at least `target` bytes (and at most a few more: an
    /// ECDSA signature's length varies by a byte or two) with a Netscape comment extension
    /// (`nsComment`, 2.16.840.1.113730.1.13, not critical), which verifiers ignore.
    static func issue(paddedTo target: Int?, commonName: String, organizationalUnit: String?, key: TestPrivateKey,
                      issuer: (certificate: TestCertificate, key: TestPrivateKey)?, serial: Int64, notBefore: Date, notAfter: Date,
                      extensions: [TestCertificate.Extension]) throws(AppStoreTestingError) -> TestCertificate {
        func make(_ padding: Int) throws(AppStoreTestingError) -> TestCertificate {
            let comment = padding > 0 ? [TestCertificate.Extension(name: "nsComment", value: Self.padding(padding))] : []
            return try TestCertificate.issue(commonName: commonName, organizationalUnit: organizationalUnit, key: key, issuer: issuer, serial: serial,
                                             notBefore: notBefore, notAfter: notAfter, extensions: extensions + comment)
        }
        var certificate = try make(0)
        guard let target, certificate.derEncoded.count < target else { return certificate }
        // The extension costs its text plus about 17 bytes (OID, lengths); the lengths of the
        // enclosing sequences may grow too: measure and adjust.
        // An ECDSA signature's DER length varies with each issue (a byte or two either way), so a
        // size can be missed by chance: try until it lands (32 tries miss with odds far below 1e-9).
        var padding = target - certificate.derEncoded.count - 17
        for _ in 0..<32 {
            certificate = try make(max(1, padding))
            let missing = target - certificate.derEncoded.count
            if missing <= 0, missing > -8 { return certificate }
            padding += missing > 0 ? missing + 1 : missing + 2
        }
        return certificate
    }

    /// `count` characters of ``paddingText``, repeated.
    static func padding(_ count: Int) -> String {
        String(String(repeating: paddingText, count: count / paddingText.count + 1).prefix(count))
    }
}
