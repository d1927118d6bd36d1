import CAppStoreOpenSSL
import Foundation

/// SHA-2 digests through OpenSSL.
enum Digest {
    static func sha256<Bytes: ContiguousBytes>(_ bytes: Bytes) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        bytes.withUnsafeBytes { raw in
            _ = asv_sha256(raw.bindMemory(to: UInt8.self).baseAddress, raw.count, &out)
        }
        return out
    }

    static func sha384<Bytes: ContiguousBytes>(_ bytes: Bytes) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 48)
        bytes.withUnsafeBytes { raw in
            _ = asv_sha384(raw.bindMemory(to: UInt8.self).baseAddress, raw.count, &out)
        }
        return out
    }
}
