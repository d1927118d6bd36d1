import Foundation

extension Base64 {
    private static let urlAlphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    private static let standardAlphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    /// Twelve bits to two characters (in memory order), so that three bytes take two lookups.
    private static let urlPairs = pairs(of: urlAlphabet)
    private static let standardPairs = pairs(of: standardAlphabet)

    private static func pairs(of alphabet: [UInt8]) -> [UInt16] {
        (0..<4096).map { (UInt16(alphabet[$0 >> 6]) | UInt16(alphabet[$0 & 63]) << 8).littleEndian }
    }

    /// base64url without padding (RFC 7515 section 2), as JWS segments are encoded.
    package static func encodeURL<Bytes: ContiguousBytes>(_ bytes: Bytes) -> String {
        encode(bytes, alphabet: urlAlphabet, pairs: urlPairs, padded: false)
    }

    /// Standard base64 with `=` padding (RFC 4648 section 4).
    package static func encodeStandard<Bytes: ContiguousBytes>(_ bytes: Bytes) -> String {
        encode(bytes, alphabet: standardAlphabet, pairs: standardPairs, padded: true)
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
        return urlAlphabet.withUnsafeBufferPointer { table in
            urlPairs.withUnsafeBufferPointer { pairs in encode(input, into: out, table: table, pairs: pairs, padded: false) }
        }
    }

    /// Three bytes to four characters straight into the string's storage (Foundation's encoder
    /// goes through `String` indexing: a minted notification spent more on base64 than on ECDSA).
    private static func encode<Bytes: ContiguousBytes>(_ bytes: Bytes, alphabet: [UInt8], pairs: [UInt16], padded: Bool) -> String {
        bytes.withUnsafeBytes { input in
            let count = input.count
            let remainder = count % 3
            let length = count / 3 * 4 + (remainder == 0 ? 0 : (padded ? 4 : remainder + 1))
            guard length > 0 else { return "" }
            return alphabet.withUnsafeBufferPointer { table in
                pairs.withUnsafeBufferPointer { pairs in
                    String(unsafeUninitializedCapacity: length) { out in encode(input, into: out, table: table, pairs: pairs, padded: padded) }
                }
            }
        }
    }

    /// The encoding loop: `out` holds the whole encoding; returns its length.
    private static func encode(_ input: UnsafeRawBufferPointer, into out: UnsafeMutableBufferPointer<UInt8>,
                               table: UnsafeBufferPointer<UInt8>, pairs: UnsafeBufferPointer<UInt16>, padded: Bool) -> Int {
        let count = input.count
        let remainder = count % 3
        var read = 0, written = 0
        if let base = out.baseAddress, let source = input.baseAddress {
            let destination = UnsafeMutableRawPointer(base)
            #if _endian(little) && _pointerBitWidth(_64)
            // Six bytes to eight characters from one eight-byte load (its last two bytes unused);
            // the 48 bits it keeps need a 64-bit `Int`.
            while read + 8 <= count {
                let bits = Int(truncatingIfNeeded: UInt64(bigEndian: source.loadUnaligned(fromByteOffset: read, as: UInt64.self)) >> 16)
                let characters = UInt64(pairs[bits >> 36]) | UInt64(pairs[bits >> 24 & 0xFFF]) << 16
                    | UInt64(pairs[bits >> 12 & 0xFFF]) << 32 | UInt64(pairs[bits & 0xFFF]) << 48
                destination.storeBytes(of: characters, toByteOffset: written, as: UInt64.self)
                read += 6
                written += 8
            }
            #endif
            while read + 3 <= count {
                let value = Int(input[read]) << 16 | Int(input[read + 1]) << 8 | Int(input[read + 2])
                destination.storeBytes(of: pairs[value >> 12], toByteOffset: written, as: UInt16.self)
                destination.storeBytes(of: pairs[value & 0xFFF], toByteOffset: written + 2, as: UInt16.self)
                read += 3
                written += 4
            }
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
