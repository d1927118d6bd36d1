internal import CAppStoreOpenSSL
import Foundation

/// A receipt's PKCS#7 SignedData, parsed by OpenSSL: attached content, exactly one signer, the
/// embedded certificates. Owned by one verification call.
package final class ReceiptSignedData {
    private let pointer: OpaquePointer

    /// The most certificates a receipt may embed (Apple embeds three; Xcode one).
    static let maximumCertificates = 8

    /// Parses DER or BER bytes; trailing bytes are an error.
    package init(encoded: Data) throws(SignedDataDecodingError) {
        var error = asv_error()
        var parsed: OpaquePointer?
        let verdict = encoded.withUnsafeBytes { raw in
            asv_pkcs7_parse(raw.baseAddress, raw.count, Self.maximumCertificates, &parsed, &error)
        }
        guard verdict == 1, let parsed else {
            throw SignedDataDecodingError(.malformedReceipt, "The receipt is not a PKCS#7 SignedData that an app receipt can be: \(OpenSSLFailure(error).message).")
        }
        self.pointer = parsed
    }

    /// Parses a DER receipt whose certificates field was cut out (``ReceiptEnvelope``), with its
    /// signer's certificate from an earlier, fully checked receipt that embedded the same
    /// certificates. `nil` when anything differs from the general path's expectations (the signer
    /// is another certificate, the structure is refused): the caller then takes the general path,
    /// which reports the problem.
    init?(withoutCertificates der: [UInt8], signer: X509Certificate) {
        var error = asv_error()
        var parsed: OpaquePointer?
        let verdict = der.withUnsafeBytes { raw in
            asv_pkcs7_parse_with_signer(raw.baseAddress, raw.count, signer.pointer, &parsed, &error)
        }
        guard verdict == 1, let parsed else { return nil }
        self.pointer = parsed
    }

    deinit { asv_pkcs7_free(pointer) }

    /// The signed content octets: the receipt's payload.
    var content: Data {
        var length = 0
        guard let bytes = asv_pkcs7_content(pointer, &length), length > 0 else { return Data() }
        return Data(bytes: bytes, count: length)
    }

    /// The signed content octets, as bytes.
    var contentBytes: [UInt8] {
        var length = 0
        guard let bytes = asv_pkcs7_content(pointer, &length), length > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: bytes, count: length))
    }

    /// The embedded certificates' DER encodings, in embedded order.
    package var certificates: [Data] {
        (0..<asv_pkcs7_certificate_count(pointer)).map { index in
            var length = 0
            guard let bytes = asv_pkcs7_certificate_der(pointer, index, &length) else { return Data() }
            return Data(bytes: bytes, count: length)
        }
    }

    /// The key of the embedded certificates in the chain cache.
    var certificatesKey: ReceiptCertificatesKey {
        ReceiptCertificatesKey(certificates: certificates.map { [UInt8]($0) })
    }

    /// The signer's algorithms, attributes and certificate index.
    var signer: asv_pkcs7_signer_summary { asv_pkcs7_signer(pointer) }

    /// Verifies the signer's signature over the content with its embedded certificate's key (no
    /// path validation: the caller's chain policy does that).
    package func verifySignature() throws(OpenSSLFailure) {
        var error = asv_error()
        guard asv_pkcs7_verify_signature(pointer, &error) == 1 else { throw OpenSSLFailure(error) }
    }
}
