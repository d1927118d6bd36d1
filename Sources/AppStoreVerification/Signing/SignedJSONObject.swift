/// A flat JSON object written deterministically, for the headers and claims this library signs.
///
/// Members are written in the order given, compactly (no white space), with strings escaped as
/// Python's `json.dumps` does by default (non-ASCII and control characters as `\uXXXX`), so that
/// the same claims give the same bytes as Apple's Python library (PyJWT).
package struct SignedJSONObject: Sendable, Equatable {
    /// A member's value.
    package enum Value: Sendable, Equatable {
        case string(String)
        case integer(Int64)
        case bool(Bool)
    }

    /// The members, in the order they are written. Names are unique.
    package private(set) var members: [(name: String, value: Value)] = []

    package init() {}

    /// Appends a member (replacing the value of an existing member of that name, in place).
    package mutating func set(_ name: String, _ value: Value) {
        if let index = members.firstIndex(where: { $0.name == name }) {
            members[index].value = value
        } else {
            members.append((name, value))
        }
    }

    /// The value of the member `name`, if any.
    package subscript(name: String) -> Value? { members.first { $0.name == name }?.value }

    /// The UTF-8 JSON text.
    package var utf8: [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "{")]
        for (offset, member) in members.enumerated() {
            if offset > 0 { out.append(UInt8(ascii: ",")) }
            Self.appendString(member.name, to: &out)
            out.append(UInt8(ascii: ":"))
            switch member.value {
            case .string(let text): Self.appendString(text, to: &out)
            case .integer(let number): out += Array(String(number).utf8)
            case .bool(let flag): out += Array((flag ? "true" : "false").utf8)
            }
        }
        out.append(UInt8(ascii: "}"))
        return out
    }

    package static func == (lhs: SignedJSONObject, rhs: SignedJSONObject) -> Bool {
        lhs.members.count == rhs.members.count && zip(lhs.members, rhs.members).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }

    private static let hex = Array("0123456789abcdef".utf8)

    /// `text` as a JSON string literal, ASCII only, as Python's `json.dumps(ensure_ascii=True)`.
    private static func appendString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Printable ASCII other than `"` and `\` (every claim Apple documents) is written as it is.
        var text = text
        let plain = text.withUTF8 { bytes in
            bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
        }
        if plain {
            out.append(contentsOf: text.utf8)
            out.append(UInt8(ascii: "\""))
            return
        }
        for unit in text.utf16 {
            switch unit {
            case 0x22: out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case 0x5C: out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x0A: out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0x08: out += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
            case 0x0C: out += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
            case 0x20...0x7E: out.append(UInt8(truncatingIfNeeded: unit))
            default:
                out += [UInt8(ascii: "\\"), UInt8(ascii: "u")]
                out += [hex[Int(unit >> 12 & 0xF)], hex[Int(unit >> 8 & 0xF)], hex[Int(unit >> 4 & 0xF)], hex[Int(unit & 0xF)]]
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
