internal import CAppStoreOpenSSL
import Foundation

/// One parsed X.509 certificate, owned by OpenSSL and freed when the last reference goes.
///
/// Immutable after parsing; OpenSSL guards the lazily computed caches inside an `X509` with its own
/// lock, so sharing one across threads is safe.
package final class X509Certificate: @unchecked Sendable {
    let pointer: OpaquePointer
    /// The certificate's DER encoding, exactly as it was given.
    package let derEncoded: Data

    /// Counts the certificates parsed by the task that sets it (and its child tasks): how tests see
    /// that a verification reads each certificate once.
    @TaskLocal static var parseCounter: ParseCounter?

    /// A count of parsed certificates.
    final class ParseCounter: @unchecked Sendable {
        private let lock = NSLock()
        private var parsed = 0
        var count: Int { lock.withLock { parsed } }
        func increment() { lock.withLock { parsed += 1 } }
    }

    /// Parses exactly one DER certificate; trailing bytes are an error.
    package init(derEncoded: Data) throws(OpenSSLFailure) {
        Self.parseCounter?.increment()
        var error = asv_error()
        let parsed = derEncoded.withUnsafeBytes { asv_x509_from_der($0.baseAddress, $0.count, &error) }
        guard let parsed else { throw OpenSSLFailure(error) }
        self.pointer = parsed
        self.derEncoded = derEncoded
    }

    deinit { asv_x509_free(pointer) }

    /// The subject, as an RFC 2253 string (for messages).
    var subject: String {
        var buffer = [CChar](repeating: 0, count: 512)
        let length = buffer.withUnsafeMutableBufferPointer { asv_x509_subject(pointer, $0.baseAddress, $0.count) }
        // OpenSSL's RFC 2253 form escapes control bytes already; this holds whatever it lets through.
        return LogSafeText.escaping(String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    /// The validity window.
    func validity() throws(OpenSSLFailure) -> ClosedRange<Date> {
        var error = asv_error()
        var notBefore: Int64 = 0
        var notAfter: Int64 = 0
        guard asv_x509_validity(pointer, &notBefore, &notAfter, &error) == 1, notBefore <= notAfter else {
            throw OpenSSLFailure(error)
        }
        return Date(timeIntervalSince1970: TimeInterval(notBefore))...Date(timeIntervalSince1970: TimeInterval(notAfter))
    }

    /// Whether the certificate carries an extension with the given dotted OID.
    func hasExtension(_ oid: String) -> Bool {
        var error = asv_error()
        return asv_x509_has_extension(pointer, oid, &error) == 1
    }

    /// The certificate's public key.
    package func publicKey() throws(OpenSSLFailure) -> PublicKey {
        var error = asv_error()
        guard let key = asv_x509_public_key(pointer, &error) else { throw OpenSSLFailure(error) }
        return PublicKey(taking: key)
    }

    /// Whether this certificate's signature verifies under `issuerKey`.
    package func isSigned(by issuerKey: PublicKey) -> Bool {
        var error = asv_error()
        return asv_x509_signature_verifies(pointer, issuerKey.pointer, &error) == 1
    }
}
