import Foundation

/// The bare OpenSSL operations a verification cannot avoid, exposed to the benchmarks so they can
/// measure the floor in the same run as the verifier. Not API: `@_spi(Benchmarking)` only.
@_spi(Benchmarking)
public struct RawVerificationFloor: Sendable {
    private let leafKey: PublicKey
    private let leaf: X509Certificate
    private let intermediateKey: PublicKey
    private let signingInput: [UInt8]
    private let signature: Data

    /// Pre-parses everything from a JWS whose `x5c` is [leaf, intermediate, root].
    public init(jws: String) throws {
        let compact = try CompactJWS(parsing: jws)
        let chain = try JWSHeader.parse(compact).get().requireCertificateChain().get()
        guard chain.count >= 2 else {
            throw OpenSSLFailure(message: "the JWS needs a leaf and an intermediate")
        }
        leaf = try X509Certificate(derEncoded: chain[0])
        leafKey = try leaf.publicKey()
        intermediateKey = try X509Certificate(derEncoded: chain[1]).publicKey()
        signingInput = compact.withSigningInput { Array($0.bindMemory(to: UInt8.self)) }
        signature = compact.signature
    }

    /// One ES256 verify of the JWS signing input with the pre-parsed leaf key: SHA-256 + ECDSA P-256.
    public func verifyES256() -> Bool {
        if case .success = leafKey.verifyES256(signature: signature, over: signingInput) { return true }
        return false
    }

    /// What a leaf never seen before costs in OpenSSL alone: parsing its DER (OpenSSL 3 decodes the
    /// public key through its provider decoders, a fixed cost per certificate) and checking its
    /// signature with the intermediate's pre-parsed key.
    public func parseAndVerifyLeafCertificate() -> Bool {
        guard let fresh = try? X509Certificate(derEncoded: leaf.derEncoded) else { return false }
        if case .success = fresh.isSigned(by: intermediateKey) { return true }
        return false
    }

    /// One check of the leaf certificate's signature with the intermediate's pre-parsed P-384 key.
    public func verifyLeafCertificateSignature() -> Bool {
        if case .success = leaf.isSigned(by: intermediateKey) { return true }
        return false
    }
}
