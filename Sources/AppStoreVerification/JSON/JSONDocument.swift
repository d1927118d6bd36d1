/// A parsed JSON document: the source bytes and a tape of their values, in document order.
///
/// Parsing validates the whole text once (see ``JSONParser``) and records where each value is;
/// nothing is converted until a decoder asks for it, so a payload costs one pass and a handful of
/// allocations whatever its size. Final and immutable once built, so decoders share it freely.
final class JSONDocument: Sendable {
    /// What a tape entry is.
    enum Kind: UInt8, Sendable {
        case null, `true`, `false`, number, string, array, object
    }

    /// One value on the tape. Containers are followed by their contents (for objects: name,
    /// value, name, value, ...); `next` is the index just past the value and everything inside it.
    struct Node: Sendable {
        var kind: Kind
        /// For strings: whether the text has escape sequences to decode.
        var hasEscapes: Bool
        /// The value's bytes: for strings, between the quotes; for numbers and literals, the token;
        /// for containers, from the opening to the closing bracket.
        var start: Int32
        var end: Int32
        /// The tape index just past this value (and its contents).
        var next: Int32
        /// For containers: how many elements (arrays) or members (objects).
        var count: Int32
        /// For objects: bit `n % 64` is set when a member name is `n` bytes long, so most lookups
        /// of an absent name end without scanning.
        var nameLengths: UInt64 = 0
    }

    let bytes: [UInt8]
    let nodes: [Node]

    init(bytes: [UInt8], nodes: [Node]) {
        self.bytes = bytes
        self.nodes = nodes
    }

    /// The tape index of the member named `name` in the object at `object`, or `nil`.
    func member<Name: StringProtocol>(_ name: Name, in object: Int) -> Int? {
        var utf8Name = String(name)
        return utf8Name.withUTF8 { name in
            guard nodes[object].nameLengths & (1 << UInt64(name.count & 63)) != 0 else { return nil }
            var index = object + 1
            let end = Int(nodes[object].next)
            while index < end {
                let value = index + 1
                if matches(keyAt: index, name) { return value }
                index = Int(nodes[value].next)
            }
            return nil
        }
    }

    /// The names of the object's members, decoded.
    func memberNames(in object: Int) -> [String] {
        var names: [String] = []
        var index = object + 1
        let end = Int(nodes[object].next)
        while index < end {
            names.append(string(at: index))
            index = Int(nodes[index + 1].next)
        }
        return names
    }

    /// The indices of the array's elements.
    func elements(of array: Int) -> [Int] {
        var indices: [Int] = []
        indices.reserveCapacity(Int(nodes[array].count))
        var index = array + 1
        let end = Int(nodes[array].next)
        while index < end {
            indices.append(index)
            index = Int(nodes[index].next)
        }
        return indices
    }

    /// The string at `index`, with escapes decoded (the parser validated them).
    func string(at index: Int) -> String {
        let node = nodes[index]
        return bytes.withUnsafeBufferPointer { buffer in
            let slice = UnsafeBufferPointer(rebasing: buffer[Int(node.start)..<Int(node.end)])
            guard node.hasEscapes else { return String(decoding: slice, as: UTF8.self) }
            return String(decoding: JSONParser.unescape(slice), as: UTF8.self)
        }
    }

    /// The source text of the value at `index` (a number's digits, for messages and conversion).
    func text(at index: Int) -> String {
        let node = nodes[index]
        return bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[Int(node.start)..<Int(node.end)]), as: UTF8.self) }
    }

    /// The value at `index` as it appears in the JSON (strings quoted), cut to 80 characters, for
    /// messages.
    func excerpt(at index: Int) -> String {
        let node = nodes[index]
        var text = node.kind == .string ? "\"" + self.text(at: index) + "\"" : self.text(at: index)
        if text.count > 80 { text = String(text.prefix(80)) + "…" }
        return text
    }

    /// The number at `index` as an exact integer of type `T`, or `nil` when its text is not an
    /// integer or does not fit.
    func integer<T: FixedWidthInteger>(at index: Int, as type: T.Type) -> T? {
        let node = nodes[index]
        return bytes.withUnsafeBufferPointer { buffer -> T? in
            var position = Int(node.start)
            let end = Int(node.end)
            let negative = buffer[position] == UInt8(ascii: "-")
            if negative { position += 1 }
            guard position < end else { return nil }
            var value: T = 0
            while position < end {
                let digit = buffer[position] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }  // a fraction or an exponent
                let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
                let (added, overflow2) = negative
                    ? shifted.subtractingReportingOverflow(T(digit))
                    : shifted.addingReportingOverflow(T(digit))
                guard !overflow1, !overflow2 else { return nil }
                value = added
                position += 1
            }
            return value
        }
    }

    /// The number at `index` as a `Double`, or `nil` when it is not finite.
    func double(at index: Int) -> Double? {
        if let integer = integer(at: index, as: Int64.self), abs(integer) < 1 << 53 {
            return Double(integer)
        }
        guard let double = Double(text(at: index)), double.isFinite else { return nil }
        return double
    }

    private func matches(keyAt index: Int, _ name: UnsafeBufferPointer<UInt8>) -> Bool {
        let key = nodes[index]
        if key.hasEscapes {
            return string(at: index).utf8.elementsEqual(name)
        }
        guard Int(key.end - key.start) == name.count else { return false }
        return bytes.withUnsafeBufferPointer { buffer in
            var offset = 0
            var position = Int(key.start)
            while offset < name.count {
                if buffer[position] != name[offset] { return false }
                offset += 1
                position += 1
            }
            return true
        }
    }
}
