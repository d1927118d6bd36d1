import Foundation

/// Strict Base64 decoders for the two alphabets a JWS uses.
///
/// Both reject every non-canonical encoding, so one byte string has exactly one accepted text form:
/// no whitespace, no characters from the other alphabet, no impossible lengths, and no non-zero bits
/// left over in the last character.
package enum Base64 {
    /// The ways a Base64 text can be wrong.
    package enum Failure: Error, Equatable, CustomStringConvertible {
        case invalidCharacter(offset: Int, byte: UInt8)
        case invalidLength(Int)
        case invalidPadding
        case nonCanonicalTrailingBits

        package var description: String {
            switch self {
            case .invalidCharacter(let offset, let byte):
                let shown = (0x21...0x7E).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : String(format: "byte 0x%02X", byte)
                return "\(shown) at offset \(offset) is not in the alphabet"
            case .invalidLength(let length):
                return "a length of \(length) characters is impossible"
            case .invalidPadding:
                return "the '=' padding is wrong"
            case .nonCanonicalTrailingBits:
                return "the last character has non-zero unused bits (not the canonical encoding)"
            }
        }
    }

    /// Decodes base64url without padding (RFC 7515 section 2), as JWS segments are encoded.
    package static func decodeURL<Bytes: Collection<UInt8>>(_ text: Bytes) throws(Failure) -> Data {
        try decode(text, table: urlTable, padded: false)
    }

    /// Decodes standard base64 with its required `=` padding (RFC 4648 section 4), as `x5c` entries are encoded.
    static func decodeStandard<Bytes: Collection<UInt8>>(_ text: Bytes) throws(Failure) -> Data {
        try decode(text, table: standardTable, padded: true)
    }

    private static let invalid: UInt8 = 0xFF

    private static func makeTable(_ alphabet: String) -> [UInt8] {
        var table = [UInt8](repeating: invalid, count: 256)
        for (value, byte) in alphabet.utf8.enumerated() {
            table[Int(byte)] = UInt8(value)
        }
        return table
    }

    private static let standardTable = makeTable("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
    private static let urlTable = makeTable("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")

    private static func decode<Bytes: Collection<UInt8>>(_ text: Bytes, table: [UInt8], padded: Bool) throws(Failure) -> Data {
        // Results rather than typed throws across the closures: no error escapes a closure.
        let result = text.withContiguousStorageIfAvailable { decode($0, table: table, padded: padded) }
            ?? Array(text).withUnsafeBufferPointer { decode($0, table: table, padded: padded) }
        return try result.get()
    }

    private static func decode(_ text: UnsafeBufferPointer<UInt8>, table: [UInt8], padded: Bool) -> Result<Data, Failure> {
        var count = text.count
        if padded {
            guard count % 4 == 0 else { return .failure(.invalidLength(count)) }
            // Strip at most two '=' from the end; any other '=' is an invalid character below.
            var padding = 0
            while padding < 2, count > 0, text[count - 1] == UInt8(ascii: "=") {
                count -= 1
                padding += 1
            }
            if padding > 0, count % 4 == 0 { return .failure(.invalidPadding) }
        } else if count % 4 == 1 {
            return .failure(.invalidLength(count))
        }
        let outputCount = count / 4 * 3 + max(0, count % 4 - 1)
        var output = Data(count: outputCount)
        let failure = table.withUnsafeBufferPointer { table in
            output.withUnsafeMutableBytes { raw in
                decodeBody(text, count: count, table: table, into: raw.bindMemory(to: UInt8.self))
            }
        }
        if let failure { return .failure(failure) }
        return .success(output)
    }

    /// Decodes the first `count` characters of `text` into `out`; returns the failure, if any.
    private static func decodeBody(_ text: UnsafeBufferPointer<UInt8>, count: Int, table: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>) -> Failure? {
        var offset = 0
        var written = 0
        var accumulator: UInt32 = 0
        var pending = 0
        while offset < count {
            let byte = text[offset]
            let value = table[Int(byte)]
            guard value != invalid else { return .invalidCharacter(offset: offset, byte: byte) }
            accumulator = accumulator << 6 | UInt32(value)
            pending += 1
            if pending == 4 {
                out[written] = UInt8(truncatingIfNeeded: accumulator >> 16)
                out[written + 1] = UInt8(truncatingIfNeeded: accumulator >> 8)
                out[written + 2] = UInt8(truncatingIfNeeded: accumulator)
                written += 3
                accumulator = 0
                pending = 0
            }
            offset += 1
        }
        switch pending {
        case 2:
            guard accumulator & 0xF == 0 else { return .nonCanonicalTrailingBits }
            out[written] = UInt8(truncatingIfNeeded: accumulator >> 4)
        case 3:
            guard accumulator & 0x3 == 0 else { return .nonCanonicalTrailingBits }
            out[written] = UInt8(truncatingIfNeeded: accumulator >> 10)
            out[written + 1] = UInt8(truncatingIfNeeded: accumulator >> 2)
        default:
            break
        }
        return nil
    }
}
