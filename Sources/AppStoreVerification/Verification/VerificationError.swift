/// Why signed data is not verified, with StoreKit's cases plus the checks a server makes.
///
/// Each case carries a sentence that says what failed, where (which certificate, which check, which
/// date) and, where it helps, what to do. Like every error of the library, it has a ``code`` to
/// compare and a ``message`` to read, and describes itself as `code: message`; match the cases
/// (`case .invalidSignature(let text)`) as with StoreKit's, or compare codes
/// (`error.code == .invalidSignature`).
///
/// Two errors are equal, and hash alike, when their ``code``s are equal, whatever their messages
/// say: compare codes, never messages.
///
/// Which failure is which case:
///
/// | failure | case |
/// |---|---|
/// | header or signature segment not base64url, header not a JSON object, `alg` missing or not a string, `kid` not a string, `b64` not true, any `crit`, a JWT claim of the wrong type | ``invalidEncoding(_:)`` |
/// | `alg` other than ES256, or the signature does not verify with the leaf's key | ``invalidSignature(_:)`` |
/// | `x5c` missing or malformed; the chain does not lead to a trusted root, lacks a marker extension, has the wrong key, is not valid at the effective date; Xcode or LocalTesting data without a configured Xcode certificate; an OCSP responder that does not vouch | ``invalidCertificateChain(_:)`` |
/// | the payload's JWT registered claims refuse it: `exp` passed, `nbf` or `iat` in the future, an `aud` | ``invalidClaims(_:)`` |
/// | a certificate of the chain is revoked | ``revokedCertificate(_:)`` |
/// | bundle ID or App Apple ID not the configured one | ``invalidAppIdentifier(_:)`` |
/// | environment not the configured one | ``invalidEnvironment(_:)`` |
/// | a field verification needs is missing | ``missingRequiredProperties(_:)`` |
/// | the device check fails | ``invalidDeviceVerification(_:)`` |
public enum VerificationError: CodedError, Sendable {
    /// The `x5c` chain is missing or malformed, does not lead to a trusted root, lacks Apple's marker
    /// extensions, or is not valid at the effective date.
    case invalidCertificateChain(String)
    /// The JWS is not correctly encoded: its header or signature segment does not decode, its header
    /// is not a JSON object, or it marks an extension as critical.
    case invalidEncoding(String)
    /// The header names an algorithm other than ES256, or the signature does not verify with the
    /// leaf certificate's key.
    case invalidSignature(String)
    /// The payload lacks a property verification needs (for example `signedDate`).
    case missingRequiredProperties(String)
    /// A certificate in the chain has been revoked.
    case revokedCertificate(String)
    /// The payload's `deviceVerification` does not match the device it is checked against.
    case invalidDeviceVerification(String)
    /// The payload belongs to another app: its bundle ID or App Apple ID is not the configured one.
    case invalidAppIdentifier(String)
    /// The payload comes from another environment than the configured one.
    case invalidEnvironment(String)
    /// The payload's JWT registered claims (RFC 7519) refuse it: it says it expired (`exp`), is not
    /// valid yet (`nbf`, `iat`), or is meant for an audience (`aud`). App Store payloads carry none;
    /// Apple's library refuses such payloads too.
    case invalidClaims(String)

    /// Which check failed: the case, as a value to compare (`error.code == .invalidSignature`) and
    /// as text for logs and machine-readable output (`"invalidSignature"`, ...).
    public struct Code: ErrorCode {
        package let text: String
        package init(_ text: String) { self.text = text }

        /// ``VerificationError/invalidCertificateChain(_:)``.
        public static let invalidCertificateChain = Code("invalidCertificateChain")
        /// ``VerificationError/invalidEncoding(_:)``.
        public static let invalidEncoding = Code("invalidEncoding")
        /// ``VerificationError/invalidSignature(_:)``.
        public static let invalidSignature = Code("invalidSignature")
        /// ``VerificationError/missingRequiredProperties(_:)``.
        public static let missingRequiredProperties = Code("missingRequiredProperties")
        /// ``VerificationError/revokedCertificate(_:)``.
        public static let revokedCertificate = Code("revokedCertificate")
        /// ``VerificationError/invalidDeviceVerification(_:)``.
        public static let invalidDeviceVerification = Code("invalidDeviceVerification")
        /// ``VerificationError/invalidAppIdentifier(_:)``.
        public static let invalidAppIdentifier = Code("invalidAppIdentifier")
        /// ``VerificationError/invalidEnvironment(_:)``.
        public static let invalidEnvironment = Code("invalidEnvironment")
        /// ``VerificationError/invalidClaims(_:)``.
        public static let invalidClaims = Code("invalidClaims")
    }

    /// Which check failed: the case's code.
    public var code: Code {
        switch self {
        case .invalidCertificateChain: .invalidCertificateChain
        case .invalidEncoding: .invalidEncoding
        case .invalidSignature: .invalidSignature
        case .missingRequiredProperties: .missingRequiredProperties
        case .revokedCertificate: .revokedCertificate
        case .invalidDeviceVerification: .invalidDeviceVerification
        case .invalidAppIdentifier: .invalidAppIdentifier
        case .invalidEnvironment: .invalidEnvironment
        case .invalidClaims: .invalidClaims
        }
    }

    /// What failed, where and, where it helps, what to do: the case's sentence, with any control or
    /// invisible characters escaped (messages may quote the input; nothing in it may forge a log
    /// line).
    public var message: String {
        switch self {
        case .invalidCertificateChain(let text), .invalidEncoding(let text), .invalidSignature(let text),
            .missingRequiredProperties(let text), .revokedCertificate(let text),
            .invalidDeviceVerification(let text), .invalidAppIdentifier(let text),
            .invalidEnvironment(let text), .invalidClaims(let text):
            LogSafeText.escaping(text)
        }
    }
}
