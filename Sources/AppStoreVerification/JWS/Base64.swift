import Foundation

/// Strict Base64 decoders for the two alphabets a JWS uses.
///
/// Both reject every non-canonical encoding, so one byte string has exactly one accepted text form:
/// no whitespace, no characters from the other alphabet, no impossible lengths, and no non-zero bits
/// left over in the last character.
enum Base64 {
    /// The ways a Base64 text can be wrong.
    enum Failure: Error, Equatable, CustomStringConvertible {
        case invalidCharacter(offset: Int, byte: UInt8)
        case invalidLength(Int)
        case invalidPadding
        case nonCanonicalTrailingBits

        var description: String {
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
    static func decodeURL<Bytes: Collection<UInt8>>(_ text: Bytes) throws(Failure) -> Data {
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
        var count = text.count
        if padded {
            guard count % 4 == 0 else { throw .invalidLength(count) }
            // Strip at most two '=' from the end; any other '=' is an invalid character below.
            var padding = 0
            var index = text.endIndex
            while padding < 2, count > 0 {
                let before = text.index(index, offsetBy: -1)
                guard text[before] == UInt8(ascii: "=") else { break }
                index = before
                padding += 1
                count -= 1
            }
            if padding > 0, count % 4 == 0 { throw .invalidPadding }
        } else if count % 4 == 1 {
            throw .invalidLength(count)
        }

        var output = Data(capacity: count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        var offset = 0
        var index = text.startIndex
        while offset < count {
            let byte = text[index]
            let value = table[Int(byte)]
            guard value != invalid else { throw .invalidCharacter(offset: offset, byte: byte) }
            accumulator = (accumulator << 6) | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                accumulator &= (1 << UInt32(bits)) - 1
            }
            offset += 1
            index = text.index(after: index)
        }
        guard accumulator == 0 else { throw .nonCanonicalTrailingBits }
        return output
    }
}
