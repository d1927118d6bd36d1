import AppStoreVerification
import Foundation

/// The bare OpenSSL operation an ES256 signature cannot avoid, for the benchmarks: SHA-256 and
/// ECDSA P-256 over a message with a pre-parsed key, the raw `r || s` kept. What the signature
/// creators and the Testing product's minter add on top is JSON, base64url and bookkeeping.
public struct RawSigningFloor: Sendable {
    private let key: SigningKey
    private let message: [UInt8]

    /// Parses `pem` (a P-256 private key) once; `message` is what every call signs.
    public init(pem: String, message: [UInt8]) throws {
        key = try SigningKey(pem: pem)
        self.message = message
    }

    /// One ES256 signature of the message.
    public func signES256() -> Bool {
        (try? key.sign(message, encoding: .raw))?.count == 64
    }
}
