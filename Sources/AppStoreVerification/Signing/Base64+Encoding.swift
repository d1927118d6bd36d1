import Foundation

extension Base64 {
    private static let urlAlphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    private static let standardAlphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// base64url without padding (RFC 7515 section 2), as JWS segments are encoded.
    package static func encodeURL<Bytes: ContiguousBytes>(_ bytes: Bytes) -> String {
        encode(bytes, alphabet: urlAlphabet, padded: false)
    }

    /// Standard base64 with `=` padding (RFC 4648 section 4).
    package static func encodeStandard<Bytes: ContiguousBytes>(_ bytes: Bytes) -> String {
        encode(bytes, alphabet: standardAlphabet, padded: true)
    }

    /// The length of `count` bytes in base64url without padding.
    package static func encodedURLLength(_ count: Int) -> Int {
        count / 3 * 4 + (count % 3 == 0 ? 0 : count % 3 + 1)
    }

    /// Writes `input` in base64url without padding at the start of `out` (which holds at least
    /// ``encodedURLLength(_:)`` bytes) and returns how many bytes it wrote: for callers that build
    /// a JWS in one buffer.
    package static func encodeURL(_ input: UnsafeRawBufferPointer, into out: UnsafeMutableBufferPointer<UInt8>) -> Int {
        precondition(out.count >= encodedURLLength(input.count), "the base64url output buffer is too small")
        return urlAlphabet.withUnsafeBufferPointer { table in encode(input, into: out, table: table, padded: false) }
    }

    /// Three bytes to four characters straight into the string's storage (Foundation's encoder
    /// goes through `String` indexing: a minted notification spent more on base64 than on ECDSA).
    private static func encode<Bytes: ContiguousBytes>(_ bytes: Bytes, alphabet: [UInt8], padded: Bool) -> String {
        bytes.withUnsafeBytes { input in
            let count = input.count
            let remainder = count % 3
            let length = count / 3 * 4 + (remainder == 0 ? 0 : (padded ? 4 : remainder + 1))
            guard length > 0 else { return "" }
            return alphabet.withUnsafeBufferPointer { table in
                String(unsafeUninitializedCapacity: length) { out in encode(input, into: out, table: table, padded: padded) }
            }
        }
    }

    /// The encoding loop: `out` holds the whole encoding; returns its length.
    private static func encode(_ input: UnsafeRawBufferPointer, into out: UnsafeMutableBufferPointer<UInt8>,
                               table: UnsafeBufferPointer<UInt8>, padded: Bool) -> Int {
        let count = input.count
        let remainder = count % 3
        var read = 0, written = 0
        while read + 3 <= count {
            let value = UInt32(input[read]) << 16 | UInt32(input[read + 1]) << 8 | UInt32(input[read + 2])
            out[written] = table[Int(value >> 18 & 63)]
            out[written + 1] = table[Int(value >> 12 & 63)]
            out[written + 2] = table[Int(value >> 6 & 63)]
            out[written + 3] = table[Int(value & 63)]
            read += 3
            written += 4
        }
        if remainder > 0 {
            let second = remainder == 2 ? UInt32(input[read + 1]) : 0
            let value = UInt32(input[read]) << 16 | second << 8
            out[written] = table[Int(value >> 18 & 63)]
            out[written + 1] = table[Int(value >> 12 & 63)]
            written += 2
            if remainder == 2 {
                out[written] = table[Int(value >> 6 & 63)]
                written += 1
            } else if padded {
                out[written] = UInt8(ascii: "=")
                written += 1
            }
            if padded {
                out[written] = UInt8(ascii: "=")
                written += 1
            }
        }
        return written
    }
}
