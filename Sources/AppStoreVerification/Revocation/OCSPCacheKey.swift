/// The cache key of an OCSP answer: the certificate's DER and its issuer's, so that the same
/// certificate under another issuer is another entry. Compared in full; made once per chain.
struct OCSPCacheKey: Hashable, Sendable {
    private let certificate: [UInt8]
    private let issuer: [UInt8]

    init(certificate: X509Certificate, issuer: X509Certificate) {
        self.certificate = Array(certificate.derEncoded)
        self.issuer = Array(issuer.derEncoded)
    }
}
