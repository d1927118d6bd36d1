import Foundation

/// The ES256 signature check of a compact JWS (RFC 7518 section 3.4): the signature segment is the
/// raw 64-byte `r || s` over SHA-256 of the ASCII signing input `header.payload`.
///
/// A signature segment that does not decode is ``VerificationError/invalidEncoding(_:)``; one that
/// decodes but does not verify is ``VerificationError/invalidSignature(_:)``.
enum ES256Signature {
    /// Checks `jws`'s signature with `key`, hashing the whole signing input.
    ///
    /// - Parameter signer: names the key in messages ("the leaf certificate's key (x5c[0])").
    static func verify(_ jws: CompactJWS, key: PublicKey, signer: String) throws(VerificationError) {
        try requireDecodedSignature(jws)
        do {
            try jws.withSigningInput { (input) throws(OpenSSLFailure) in try key.verifyES256(signature: jws.signature, over: input) }
        } catch {
            throw mismatch(error, signer: signer)
        }
    }

    /// Checks `jws`'s signature with `key`, finishing `headerDigest` (SHA-256 already fed with
    /// `header.`) with the payload segment: the header of a known chain is never hashed again.
    static func verify(_ jws: CompactJWS, headerDigest: SHA256Prefix, key: PublicKey, signer: String) throws(VerificationError) {
        try requireDecodedSignature(jws)
        do {
            let digest = try jws.withPayloadSegment { (segment) throws(OpenSSLFailure) in try headerDigest.digest(appending: segment) }
            try key.verifyES256(signature: jws.signature, digest: digest)
        } catch {
            throw mismatch(error, signer: signer)
        }
    }

    /// The JWS-layer checks of a JWS signed by a known key, without any certificate: the header must
    /// say ES256 and mark nothing critical, and the signature must verify.
    static func verifyWithoutCertificates(_ jws: CompactJWS, key: PublicKey, signer: String) throws(VerificationError) {
        _ = try JWSHeader(of: jws)
        try verify(jws, key: key, signer: signer)
    }

    private static func requireDecodedSignature(_ jws: CompactJWS) throws(VerificationError) {
        if let failure = jws.signatureEncodingFailure {
            throw .invalidEncoding("The JWS signature segment is not base64url without padding: \(failure).")
        }
    }

    private static func mismatch(_ failure: OpenSSLFailure, signer: String) -> VerificationError {
        .invalidSignature("The ES256 signature does not verify with \(signer): \(failure.message). The header or payload was changed after signing, or another key signed it.")
    }
}
