import CBenchmarkFloors
import Foundation

/// A floor that could not be set up (a JWS or receipt without the expected certificates, a key
/// OpenSSL does not read).
public struct FloorSetupError: Error, CustomStringConvertible {
    public let description: String
}

/// The bare OpenSSL operations a JWS verification cannot avoid, called directly (not through the
/// library), so that the benchmarks measure the verifier against OpenSSL alone.
public final class RawVerificationFloor: @unchecked Sendable {
    private let jws: OpaquePointer

    /// Pre-parses everything from a JWS whose `x5c` is [leaf, intermediate, root].
    public init(jws text: String) throws {
        let segments = text.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3, let header = Self.base64URL(segments[0]), let signature = Self.base64URL(segments[2]),
              let object = try JSONSerialization.jsonObject(with: header) as? [String: Any],
              let x5c = object["x5c"] as? [String], x5c.count >= 2,
              let leaf = Data(base64Encoded: x5c[0]), let intermediate = Data(base64Encoded: x5c[1])
        else { throw FloorSetupError(description: "not a JWS with a leaf and an intermediate in x5c") }
        let input = Array(text.utf8.prefix(segments[0].utf8.count + 1 + segments[1].utf8.count))
        let made = leaf.withUnsafeBytes { leaf in
            intermediate.withUnsafeBytes { intermediate in
                signature.withUnsafeBytes { signature in
                    bf_jws_new(leaf.baseAddress, leaf.count, intermediate.baseAddress, intermediate.count,
                               input, input.count, signature.baseAddress, signature.count)
                }
            }
        }
        guard let made else { throw FloorSetupError(description: "OpenSSL could not parse the JWS's certificates or signature") }
        self.jws = made
    }

    deinit { bf_jws_free(jws) }

    /// One ES256 verify of the signing input with the pre-parsed leaf key: SHA-256 + ECDSA P-256.
    public func verifyES256() -> Bool { bf_jws_verify_es256(jws) == 1 }

    /// One ECDSA P-256 verify of the precomputed SHA-256 digest: the floor without hashing.
    public func verifyES256Digest() -> Bool { bf_jws_verify_es256_digest(jws) == 1 }

    /// What a leaf never seen before costs in OpenSSL alone: parsing its DER and checking its
    /// signature with the intermediate's pre-parsed key.
    public func parseAndVerifyLeafCertificate() -> Bool { bf_jws_parse_and_verify_leaf_certificate(jws) == 1 }

    /// One check of the leaf certificate's signature with the intermediate's pre-parsed P-384 key.
    public func verifyLeafCertificateSignature() -> Bool { bf_jws_verify_leaf_certificate(jws) == 1 }

    /// The decoded payload segment of a compact JWS (what the decode-only benchmarks decode).
    public static func payload(of jws: String) throws -> Data {
        let segments = jws.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3, let payload = base64URL(segments[1]) else { throw FloorSetupError(description: "not a compact JWS") }
        return payload
    }

    private static func base64URL(_ segment: Substring) -> Data? {
        var text = segment.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        text += String(repeating: "=", count: (4 - text.count % 4) % 4)
        return Data(base64Encoded: text)
    }
}

/// The bare OpenSSL operations an app receipt verification cannot avoid: the PKCS#7 signer's RSA
/// signature over the content (digest included) and the signer certificate's RSA signature under
/// the intermediate's pre-parsed key.
public final class RawReceiptVerificationFloor: @unchecked Sendable {
    private let receipt: OpaquePointer
    private let lock = NSLock()

    /// Pre-parses a receipt (DER) that embeds its signer and the signer's issuer.
    public init(receipt der: Data) throws {
        guard let made = der.withUnsafeBytes({ bf_receipt_new($0.baseAddress, $0.count) }) else {
            throw FloorSetupError(description: "not a PKCS#7 receipt with one signer and its issuer")
        }
        receipt = made
    }

    deinit { bf_receipt_free(receipt) }

    /// One verification of the PKCS#7 signature (content digest + RSA).
    public func verifyReceiptSignature() -> Bool {
        // One PKCS7 object is not verified by two threads at once.
        lock.withLock { bf_receipt_verify_signature(receipt) == 1 }
    }

    /// One check of the signer certificate's RSA signature with the intermediate's pre-parsed key.
    public func verifyLeafCertificateSignature() -> Bool { bf_receipt_verify_leaf_certificate(receipt) == 1 }
}

/// The bare OpenSSL operation an ES256 signature cannot avoid: SHA-256 and ECDSA P-256 over a
/// message with a key and context set up once.
public final class RawSigningFloor: @unchecked Sendable {
    private let signer: OpaquePointer
    private let message: [UInt8]

    /// Parses `pem` (a P-256 private key) once; `message` is what every call signs.
    public init(pem: String, message: [UInt8]) throws {
        guard let made = bf_signer_new(pem, pem.utf8.count) else { throw FloorSetupError(description: "OpenSSL could not read the private key") }
        signer = made
        self.message = message
    }

    deinit { bf_signer_free(signer) }

    /// One ES256 signature of the message.
    public func signES256() -> Bool { bf_signer_sign(signer, message, message.count) == 1 }
}
