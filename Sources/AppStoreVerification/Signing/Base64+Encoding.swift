import Foundation

extension Base64 {
    private static let urlAlphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// base64url without padding (RFC 7515 section 2), as JWS segments are encoded: three bytes to
    /// four characters, written into the string's storage. (Standard base64 with padding is
    /// Foundation's `Data.base64EncodedString()`.)
    package static func encodeURL<Bytes: ContiguousBytes>(_ bytes: Bytes) -> String {
        bytes.withUnsafeBytes { input in
            let count = input.count
            let length = count / 3 * 4 + (count % 3 == 0 ? 0 : count % 3 + 1)
            guard length > 0 else { return "" }
            return urlAlphabet.withUnsafeBufferPointer { alphabet in
                String(unsafeUninitializedCapacity: length) { out in
                    var read = 0, written = 0
                    while read < count {
                        let remaining = count - read
                        let value = Int(input[read]) << 16 | (remaining > 1 ? Int(input[read + 1]) << 8 : 0) | (remaining > 2 ? Int(input[read + 2]) : 0)
                        out[written] = alphabet[value >> 18 & 63]
                        out[written + 1] = alphabet[value >> 12 & 63]
                        if remaining > 1 { out[written + 2] = alphabet[value >> 6 & 63] }
                        if remaining > 2 { out[written + 3] = alphabet[value & 63] }
                        read += 3
                        written += min(remaining, 3) + 1
                    }
                    return written
                }
            }
        }
    }
}
