import CAppStoreOpenSSL
import Foundation

/// A public key extracted once from a certificate and reused for every signature it checks.
///
/// An `EVP_PKEY` is read-only once created and OpenSSL allows concurrent verifications with it.
final class PublicKey: @unchecked Sendable {
    let pointer: OpaquePointer

    /// Takes ownership of one reference to `pointer`.
    init(taking pointer: OpaquePointer) { self.pointer = pointer }

    /// Parses a DER SubjectPublicKeyInfo.
    init(subjectPublicKeyInfo der: Data) throws(OpenSSLFailure) {
        var error = asv_error()
        let parsed = der.withUnsafeBytes { raw in
            asv_pkey_from_spki_der(raw.bindMemory(to: UInt8.self).baseAddress, raw.count, &error)
        }
        guard let parsed else { throw OpenSSLFailure(error) }
        self.pointer = parsed
    }

    deinit { asv_pkey_free(pointer) }

    /// The elliptic curve the key is on.
    var curve: EllipticCurve { EllipticCurve(nid: asv_pkey_curve_nid(pointer)) }

    /// Verifies a JOSE ES256 signature (raw `r || s`, 64 bytes) over SHA-256 of `message`.
    func verifyES256<Message: ContiguousBytes>(signature: Data, over message: Message) -> Result<Void, OpenSSLFailure> {
        var error = asv_error()
        let verdict = message.withUnsafeBytes { messageBytes in
            signature.withUnsafeBytes { signatureBytes in
                asv_es256_verify(
                    pointer,
                    messageBytes.bindMemory(to: UInt8.self).baseAddress, messageBytes.count,
                    signatureBytes.bindMemory(to: UInt8.self).baseAddress, signatureBytes.count,
                    &error)
            }
        }
        return verdict == 1 ? .success(()) : .failure(OpenSSLFailure(error))
    }
}

/// The elliptic curves this package meets in App Store certificates.
enum EllipticCurve: Sendable, Equatable, CustomStringConvertible {
    case p256
    case p384
    case other(nid: Int32)
    case notElliptic

    init(nid: Int32) {
        switch nid {
        case 415: self = .p256  // NID_X9_62_prime256v1
        case 715: self = .p384  // NID_secp384r1
        case 0: self = .notElliptic
        default: self = .other(nid: nid)
        }
    }

    var description: String {
        switch self {
        case .p256: "P-256"
        case .p384: "P-384"
        case .other(let nid): "an elliptic curve other than P-256 (OpenSSL NID \(nid))"
        case .notElliptic: "not an elliptic-curve key"
        }
    }
}
