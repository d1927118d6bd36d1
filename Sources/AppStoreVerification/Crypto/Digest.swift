internal import CAppStoreOpenSSL
import Foundation

/// SHA-1 and SHA-2 digests through OpenSSL.
///
/// Each function throws when OpenSSL cannot compute the digest (no provider offers the algorithm,
/// allocation failure): a digest of zeros must never stand in for a real one, since callers compare
/// digests.
enum Digest {
    /// SHA-256 of `bytes` (32 bytes).
    static func sha256<Bytes: ContiguousBytes>(_ bytes: Bytes) throws(OpenSSLFailure) -> [UInt8] {
        try compute(bytes, length: 32, name: "SHA-256") { asv_sha256($0, $1, $2) }
    }

    /// SHA-384 of `bytes` (48 bytes).
    static func sha384<Bytes: ContiguousBytes>(_ bytes: Bytes) throws(OpenSSLFailure) -> [UInt8] {
        try compute(bytes, length: 48, name: "SHA-384") { asv_sha384($0, $1, $2) }
    }

    /// SHA-1 of `bytes` (20 bytes), for the legacy formats that still use it.
    static func sha1<Bytes: ContiguousBytes>(_ bytes: Bytes) throws(OpenSSLFailure) -> [UInt8] {
        try compute(bytes, length: 20, name: "SHA-1") { asv_sha1($0, $1, $2) }
    }

    private static func compute<Bytes: ContiguousBytes>(
        _ bytes: Bytes, length: Int, name: String,
        _ function: (UnsafeRawPointer?, Int, UnsafeMutablePointer<UInt8>?) -> Int32
    ) throws(OpenSSLFailure) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: length)
        let status = bytes.withUnsafeBytes { raw in
            out.withUnsafeMutableBufferPointer { function(raw.baseAddress, raw.count, $0.baseAddress) }
        }
        guard status == 1 else {
            throw OpenSSLFailure(message: "OpenSSL could not compute \(name) (is the default provider available?)")
        }
        return out
    }
}
