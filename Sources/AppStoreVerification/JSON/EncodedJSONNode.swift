import Foundation

/// A JSON value being encoded by ``JSONTreeEncoder``: scalars already in their JSON text, objects
/// and arrays in boxes that their containers fill in place.
enum EncodedJSONNode {
    case null
    case literal(String)
    case string(String)
    case object(EncodedJSONObject)
    case array(EncodedJSONArray)

    /// Appends this value's JSON text to `out`: object members sorted by name (byte order of their
    /// UTF-8), strings escaped as `JSONEncoder` escapes them with `.withoutEscapingSlashes`.
    func write(into out: inout [UInt8]) {
        switch self {
        case .null:
            out.append(contentsOf: "null".utf8)
        case .literal(let text):
            out.append(contentsOf: text.utf8)
        case .string(let text):
            Self.writeString(text, into: &out)
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            for (index, member) in object.sortedMembers.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.writeString(member.key, into: &out)
                out.append(UInt8(ascii: ":"))
                member.value.write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        case .array(let array):
            out.append(UInt8(ascii: "["))
            for (index, element) in array.elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                element.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// A JSON string: `"` and `\` escaped, control characters as `\b \f \n \r \t` or `\u00XX`,
    /// everything else (`/` and non-ASCII included) as its UTF-8.
    static func writeString(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return }
            let count = bytes.count
            var start = 0
            var index = 0
            while index < count {
                // Thirty-two bytes, then eight, at a time while none needs escaping (most of a
                // nested JWS).
                if index + 32 <= count {
                    let words = UnsafeRawPointer(base + index)
                    let found = Self.escapingBits(words.loadUnaligned(as: UInt64.self)) | Self.escapingBits(words.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
                        | Self.escapingBits(words.loadUnaligned(fromByteOffset: 16, as: UInt64.self)) | Self.escapingBits(words.loadUnaligned(fromByteOffset: 24, as: UInt64.self))
                    if found == 0 {
                        index += 32
                        continue
                    }
                }
                if index + 8 <= count, !Self.needsEscaping(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)) {
                    index += 8
                    continue
                }
                let byte = base[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else {
                    index += 1
                    continue
                }
                out.append(contentsOf: UnsafeBufferPointer(start: base + start, count: index - start))
                index += 1
                start = index
                out.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""): out.append(UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\"))
                case 0x08: out.append(UInt8(ascii: "b"))
                case 0x0C: out.append(UInt8(ascii: "f"))
                case 0x0A: out.append(UInt8(ascii: "n"))
                case 0x0D: out.append(UInt8(ascii: "r"))
                case 0x09: out.append(UInt8(ascii: "t"))
                default:
                    out.append(contentsOf: "u00".utf8)
                    out.append(hexDigits[Int(byte >> 4)])
                    out.append(hexDigits[Int(byte & 0x0F)])
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(start: base + start, count: count - start))
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Whether any of the eight bytes of `word` is below 0x20, `"` or `\` (exact: no false
    /// negatives, no false positives for the word as a whole).
    @inline(__always)
    static func needsEscaping(_ word: UInt64) -> Bool {
        escapingBits(word) != 0
    }

    /// Nonzero exactly when some byte of `word` needs escaping (which bits are set says nothing
    /// more: a borrow can mark bytes after the first one found).
    @inline(__always)
    static func escapingBits(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let below20 = (word &- ones &* 0x20) & ~word & highs
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let hasQuote = (quote &- ones) & ~quote & highs
        let hasBackslash = (backslash &- ones) & ~backslash & highs
        return below20 | hasQuote | hasBackslash
    }
}

/// An object being encoded, its members in the order they were encoded.
final class EncodedJSONObject {
    private(set) var members: [(key: String, value: EncodedJSONNode)] = []

    func set(_ value: EncodedJSONNode, for key: String) {
        members.append((key, value))
    }

    /// The members sorted by name (byte order of their UTF-8); of a name encoded more than once,
    /// the last value (as `JSONEncoder`).
    var sortedMembers: [(key: String, value: EncodedJSONNode)] {
        guard members.count > 1 else { return members }
        let order = members.indices.sorted { lhs, rhs in
            let (left, right) = (members[lhs].key, members[rhs].key)
            if left == right { return lhs < rhs }
            return left.utf8.lexicographicallyPrecedes(right.utf8)
        }
        var sorted: [(key: String, value: EncodedJSONNode)] = []
        sorted.reserveCapacity(order.count)
        for (position, index) in order.enumerated() {
            if position + 1 < order.count, members[order[position + 1]].key == members[index].key { continue }
            sorted.append(members[index])
        }
        return sorted
    }
}

/// An array being encoded.
final class EncodedJSONArray {
    var elements: [EncodedJSONNode] = []
}
