import Foundation

/// The ES256 signature check of a compact JWS (RFC 7518 section 3.4): the signature segment is the
/// raw 64-byte `r || s` over SHA-256 of the ASCII signing input `header.payload`.
enum ES256Signature {
    /// Checks `jws`'s signature with `key`.
    ///
    /// - Parameter signer: names the key in messages ("the leaf certificate's key (x5c[0])").
    /// - Returns: `nil` when the signature verifies, else why not.
    static func failure(of jws: CompactJWS, key: PublicKey, signer: String) -> VerificationError? {
        if let failure = jws.signatureEncodingFailure {
            return .invalidEncoding("The JWS signature segment is not base64url without padding: \(failure).")
        }
        let verdict = jws.withSigningInput { key.verifyES256(signature: jws.signature, over: $0) }
        if case .failure(let failure) = verdict {
            return .invalidSignature("The ES256 signature does not verify with \(signer): \(failure.message). The header or payload was changed after signing, or another key signed it.")
        }
        return nil
    }

    /// The JWS-layer checks of a JWS signed by a known key, without any certificate: the header must
    /// say ES256 and mark nothing critical, and the signature must verify.
    static func verify(_ jws: CompactJWS, key: PublicKey, signer: String) -> VerificationError? {
        if case .failure(let error) = JWSHeader.parse(jws) { return error }
        return failure(of: jws, key: key, signer: signer)
    }
}
