/// The top-level members of an encoded `CustomerHistory` (`{"renewalInfos":[…],"revocationNotices":[…],
/// "transactions":[…],"version":1}`, as ``ServerJSON`` writes it: no whitespace), each
/// member's value as its JSON text, found by one pass over the bytes. It reads only what
/// ``VerifiedRecords/of(_:name:)`` has just encoded, never outside data; anything else is
/// ``CorruptRecords``.
struct HistoryMembers {
    private var values: [String: String] = [:]

    /// The text of member `name`'s value, or `[]` when the history has no such member.
    subscript(name: String) -> String { values[name] ?? "[]" }

    /// - Throws: ``CorruptRecords`` when `bytes` is not one such JSON object.
    init(_ bytes: [UInt8]) throws {
        let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
        func corrupt() -> CorruptRecords { CorruptRecords(fragment: String(decoding: bytes.prefix(80), as: UTF8.self)) }
        guard bytes.first == UInt8(ascii: "{"), bytes.last == UInt8(ascii: "}") else { throw corrupt() }
        var index = 1
        while index < bytes.count - 1 {
            // "name":
            guard bytes[index] == quote, let close = bytes[(index + 1)...].firstIndex(of: quote),
                  close + 1 < bytes.count, bytes[close + 1] == UInt8(ascii: ":") else { throw corrupt() }
            let name = String(decoding: bytes[(index + 1)..<close], as: UTF8.self)
            // The value: up to the comma or brace that closes it at depth 0, strings skipped.
            let start = close + 2
            var position = start
            var depth = 0
            var inString = false
            scan: while position < bytes.count {
                let byte = bytes[position]
                if inString {
                    if byte == backslash { position += 1 } else if byte == quote { inString = false }
                } else {
                    switch byte {
                    case quote: inString = true
                    case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
                    case UInt8(ascii: "]"), UInt8(ascii: "}"):
                        if depth == 0 { break scan }
                        depth -= 1
                    case UInt8(ascii: ","): if depth == 0 { break scan }
                    default: break
                    }
                }
                position += 1
            }
            guard position < bytes.count, position > start else { throw corrupt() }
            values[name] = String(decoding: bytes[start..<position], as: UTF8.self)
            index = bytes[position] == UInt8(ascii: ",") ? position + 1 : position
        }
    }
}
