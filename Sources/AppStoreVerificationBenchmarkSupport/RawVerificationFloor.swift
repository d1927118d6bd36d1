import Foundation
import AppStoreVerification

/// The bare OpenSSL operations a verification cannot avoid, exposed to the benchmarks so they can
/// measure the floor in the same run as the verifier.
public struct RawVerificationFloor: Sendable {
    private let leafKey: PublicKey
    private let leaf: X509Certificate
    private let intermediateKey: PublicKey
    private let signingInput: [UInt8]
    private let signature: Data
    private let signingInputDigest: SHA256Digest

    /// Pre-parses everything from a JWS whose `x5c` is [leaf, intermediate, root].
    public init(jws: String) throws {
        let compact = try CompactJWS(parsing: jws)
        let chain = try JWSHeader(of: compact).requireCertificateChain()
        guard chain.count >= 2 else {
            throw OpenSSLFailure(message: "the JWS needs a leaf and an intermediate")
        }
        leaf = try X509Certificate(derEncoded: chain[0])
        leafKey = try leaf.publicKey()
        intermediateKey = try X509Certificate(derEncoded: chain[1]).publicKey()
        signingInput = compact.withSigningInput { Array($0.bindMemory(to: UInt8.self)) }
        signature = compact.signature
        signingInputDigest = try SHA256Prefix(absorbing: signingInput).digest(appending: UnsafeRawBufferPointer(start: nil, count: 0))
    }

    /// One ES256 verify of the JWS signing input with the pre-parsed leaf key: SHA-256 + ECDSA P-256.
    public func verifyES256() -> Bool {
        (try? leafKey.verifyES256(signature: signature, over: signingInput)) != nil
    }

    /// One ES256 verify of a precomputed SHA-256 digest of the signing input with the pre-parsed
    /// leaf key: ECDSA P-256 alone, the floor without hashing.
    public func verifyES256Digest() -> Bool {
        (try? leafKey.verifyES256(signature: signature, digest: signingInputDigest)) != nil
    }

    /// What a leaf never seen before costs in OpenSSL alone: parsing its DER (OpenSSL 3 decodes the
    /// public key through its provider decoders, a fixed cost per certificate) and checking its
    /// signature with the intermediate's pre-parsed key.
    public func parseAndVerifyLeafCertificate() -> Bool {
        guard let fresh = try? X509Certificate(derEncoded: leaf.derEncoded) else { return false }
        return fresh.isSigned(by: intermediateKey)
    }

    /// One check of the leaf certificate's signature with the intermediate's pre-parsed P-384 key.
    public func verifyLeafCertificateSignature() -> Bool {
        leaf.isSigned(by: intermediateKey)
    }
}
