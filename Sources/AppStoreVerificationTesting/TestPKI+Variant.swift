extension TestPKI {
    /// What is wrong with a test PKI's chains, for tests of refusals. Every variant of one PKI
    /// shares its trusted roots, so one verifier shows each refusal.
    public enum Variant: String, Sendable, Hashable, CaseIterable {
        /// Nothing: data signed with it verifies.
        case valid
        /// The leaf expired before 2020: refused with `VerificationError.invalidCertificateChain`.
        case expiredLeaf
        /// The leaf carries another marker extension than Apple's (1.2.840.113635.100.6.11.1):
        /// refused with `invalidCertificateChain`.
        case leafWithoutMarker
        /// JWS are signed with a key other than the leaf's: refused with `invalidSignature`
        /// (receipts stay valid: PKCS#7 signing needs the signer's own key).
        case wrongKey
        /// A complete chain under another, untrusted root (of the same name): refused with
        /// `invalidCertificateChain`.
        case otherRoot
    }
}
