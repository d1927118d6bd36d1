/// The cache key of an OCSP answer: the certificate's DER and its issuer's, so that the same
/// certificate under another issuer is another entry. Compared in full; made once per chain.
///
/// The hash of the two DER encodings is computed once, when the key is made: the warm path looks
/// two keys up per verification, and hashing some 3 KB of DER there byte by byte cost about 10% of
/// a verification. Equality still compares every byte (a key kept in the cache and the one a
/// verification looks up share their storage, so that comparison is usually immediate).
struct OCSPCacheKey: Hashable, Sendable {
    private let certificate: [UInt8]
    private let issuer: [UInt8]
    /// The hash of both encodings (this process's seed), computed at init.
    private let digest: Int

    init(certificate: X509Certificate, issuer: X509Certificate) {
        self.init(certificate: Array(certificate.derEncoded), issuer: Array(issuer.derEncoded))
    }

    init(certificate: [UInt8], issuer: [UInt8]) {
        self.certificate = certificate
        self.issuer = issuer
        var hasher = Hasher()
        for bytes in [certificate, issuer] {
            hasher.combine(bytes.count)
            bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        }
        digest = hasher.finalize()
    }

    static func == (lhs: OCSPCacheKey, rhs: OCSPCacheKey) -> Bool {
        lhs.digest == rhs.digest && lhs.certificate == rhs.certificate && lhs.issuer == rhs.issuer
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(digest)
    }
}
