internal import CAppStoreOpenSSL
import Foundation

/// A public key extracted once from a certificate and reused for every signature it checks.
///
/// An `EVP_PKEY` is read-only once created and OpenSSL allows concurrent verifications with it.
package final class PublicKey: @unchecked Sendable {
    let pointer: OpaquePointer

    /// Takes ownership of one reference to `pointer`.
    init(taking pointer: OpaquePointer) { self.pointer = pointer }

    /// Parses a DER SubjectPublicKeyInfo.
    package init(subjectPublicKeyInfo der: Data) throws(OpenSSLFailure) {
        var error = asv_error()
        let parsed = der.withUnsafeBytes { asv_pkey_from_spki_der($0.baseAddress, $0.count, &error) }
        guard let parsed else { throw OpenSSLFailure(error) }
        self.pointer = parsed
    }

    deinit { asv_pkey_free(pointer) }

    /// What kind of key this is.
    var kind: KeyKind { KeyKind(asv_pkey_kind(pointer), bits: Int(asv_pkey_bits(pointer))) }

    /// Verifies a JOSE ES256 signature (raw `r || s`, 64 bytes) over SHA-256 of `message`.
    package func verifyES256<Message: ContiguousBytes>(signature: Data, over message: Message) throws(OpenSSLFailure) {
        var error = asv_error()
        let verdict = message.withUnsafeBytes { messageBytes in
            signature.withUnsafeBytes { signatureBytes in
                asv_es256_verify(pointer, messageBytes.baseAddress, messageBytes.count, signatureBytes.baseAddress, signatureBytes.count, &error)
            }
        }
        guard verdict == 1 else { throw OpenSSLFailure(error) }
    }

    /// Verifies a JOSE ES256 signature over a SHA-256 digest computed by the caller.
    package func verifyES256(signature: Data, digest: SHA256Digest) throws(OpenSSLFailure) {
        var error = asv_error()
        var digest = digest
        let verdict = withUnsafeBytes(of: &digest.bytes) { digestBytes in
            signature.withUnsafeBytes { signatureBytes in
                asv_es256_verify_digest(pointer, digestBytes.bindMemory(to: UInt8.self).baseAddress, signatureBytes.baseAddress, signatureBytes.count, &error)
            }
        }
        guard verdict == 1 else { throw OpenSSLFailure(error) }
    }
}
