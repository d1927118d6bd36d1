/// The cache key of an OCSP answer: SHA-256 of the certificate's DER followed by its issuer's, so
/// that the same certificate under another issuer is another entry. Computed once per chain.
struct OCSPCacheKey: Hashable, Sendable {
    private let words: (UInt64, UInt64, UInt64, UInt64)

    init(certificate: X509Certificate, issuer: X509Certificate) {
        let digest = Digest.sha256(certificate.derEncoded + issuer.derEncoded)
        func word(_ index: Int) -> UInt64 {
            digest[(index * 8)..<(index * 8 + 8)].reduce(0) { ($0 << 8) | UInt64($1) }
        }
        words = (word(0), word(1), word(2), word(3))
    }

    static func == (lhs: OCSPCacheKey, rhs: OCSPCacheKey) -> Bool {
        lhs.words == rhs.words
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
        hasher.combine(words.1)
    }
}
