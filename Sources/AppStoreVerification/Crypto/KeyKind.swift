internal import CAppStoreOpenSSL

/// The kinds of public key met in App Store certificates, as the chain rules tell them apart.
enum KeyKind: Sendable, Hashable, CustomStringConvertible {
    /// An elliptic-curve key on P-256, the ES256 curve (App Store JWS leaves).
    case p256
    /// An elliptic-curve key on P-384 (Apple's ECC roots and intermediates).
    case p384
    /// An elliptic-curve key on another curve.
    case otherCurve
    /// An RSA key of `bits` bits (app receipt signing chains).
    case rsa(bits: Int)
    /// Neither elliptic-curve nor RSA.
    case other

    init(_ kind: asv_key_kind, bits: Int) {
        switch kind {
        case ASV_KEY_EC_P256: self = .p256
        case ASV_KEY_EC_P384: self = .p384
        case ASV_KEY_EC_OTHER: self = .otherCurve
        case ASV_KEY_RSA: self = .rsa(bits: bits)
        default: self = .other
        }
    }

    var description: String {
        switch self {
        case .p256: "a P-256 elliptic-curve key"
        case .p384: "a P-384 elliptic-curve key"
        case .otherCurve: "an elliptic-curve key on a curve other than P-256 and P-384"
        case .rsa(let bits): "a \(bits)-bit RSA key"
        case .other: "neither an elliptic-curve nor an RSA key"
        }
    }
}
