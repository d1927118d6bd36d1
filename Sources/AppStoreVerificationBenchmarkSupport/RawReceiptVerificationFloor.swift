import Foundation
import AppStoreVerification

/// The bare OpenSSL operations an app receipt verification cannot avoid, for the benchmarks: the
/// PKCS#7 signer's RSA signature over the content (digest included) with the pre-parsed receipt,
/// and the leaf certificate's RSA signature under the intermediate's pre-parsed key.
public final class RawReceiptVerificationFloor: @unchecked Sendable {
    private let signedData: ReceiptSignedData
    private let leaf: X509Certificate
    private let intermediateKey: PublicKey
    private let lock = NSLock()

    /// Pre-parses a receipt (DER or BER) that embeds [leaf, intermediate, root].
    public init(receipt: Data) throws {
        signedData = try ReceiptSignedData(encoded: receipt)
        let certificates = signedData.certificates
        guard certificates.count >= 2 else {
            throw OpenSSLFailure(message: "the receipt needs a leaf and an intermediate")
        }
        leaf = try X509Certificate(derEncoded: certificates[0])
        intermediateKey = try X509Certificate(derEncoded: certificates[1]).publicKey()
    }

    /// One verification of the PKCS#7 signature (content digest + RSA) with the pre-parsed receipt.
    public func verifyReceiptSignature() -> Bool {
        // One PKCS7 object is not verified by two threads at once.
        lock.lock()
        defer { lock.unlock() }
        do {
            try signedData.verifySignature()
            return true
        } catch {
            return false
        }
    }

    /// One check of the leaf certificate's RSA signature with the intermediate's pre-parsed key.
    public func verifyLeafCertificateSignature() -> Bool {
        leaf.isSigned(by: intermediateKey)
    }
}
