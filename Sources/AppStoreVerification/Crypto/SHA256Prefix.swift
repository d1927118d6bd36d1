internal import CAppStoreOpenSSL
import Foundation

/// A SHA-256 computation that has absorbed a prefix and is finished many times with different
/// suffixes.
///
/// Every JWS signed under one certificate chain starts with the same header segment (about 3 KB of
/// base64 certificates): the verifier absorbs `header.` once, keeps this state with the validated
/// chain, and hashes only the payload per verification. Finishing copies the state, so one value
/// serves concurrent callers.
package final class SHA256Prefix: @unchecked Sendable {
    private let state: OpaquePointer

    /// Absorbs `prefix`.
    package init<Bytes: ContiguousBytes>(absorbing prefix: Bytes) throws(OpenSSLFailure) {
        var error = asv_error()
        let state = prefix.withUnsafeBytes { asv_sha256_prefix_new($0.baseAddress, $0.count, &error) }
        guard let state else { throw OpenSSLFailure(error) }
        self.state = state
    }

    deinit { asv_sha256_prefix_free(state) }

    /// SHA-256(prefix ‖ suffix).
    package func digest(appending suffix: UnsafeRawBufferPointer) throws(OpenSSLFailure) -> SHA256Digest {
        var digest = SHA256Digest()
        let status = withUnsafeMutableBytes(of: &digest.bytes) { out in
            asv_sha256_prefix_finish(state, suffix.baseAddress, suffix.count, out.bindMemory(to: UInt8.self).baseAddress)
        }
        guard status == 1 else { throw OpenSSLFailure(message: "OpenSSL could not compute SHA-256") }
        return digest
    }
}

/// A SHA-256 digest held inline (no allocation).
package struct SHA256Digest: Sendable {
    var bytes: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
}
