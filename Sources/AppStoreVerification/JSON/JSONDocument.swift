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
    func member(_ name: String, in object: Int) -> Int? {
        var name = name
        return name.withUTF8 { name in
            guard nodes[object].nameLengths & (1 << UInt64(name.count & 63)) != 0 else { return nil }
            return nodes.withUnsafeBufferPointer { nodes in
                bytes.withUnsafeBufferPointer { bytes -> Int? in
                    var index = object + 1
                    let end = Int(nodes[object].next)
                    while index < end {
                        let key = nodes[index]
                        if key.hasEscapes {
                            if string(at: index).utf8.elementsEqual(name) { return index + 1 }
                        } else if Int(key.end - key.start) == name.count {
                            var offset = 0
                            let start = Int(key.start)
                            while offset < name.count, bytes[start + offset] == name[offset] { offset += 1 }
                            if offset == name.count { return index + 1 }
                        }
                        index = Int(nodes[index + 1].next)
                    }
                    return nil
                }
            }
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
        return LogSafeText.escaping(text)
    }

    /// The number at `index` as an exact integer of type `T`, or `nil` when its value is not a whole
    /// number or does not fit.
    ///
    /// Integer syntax is read digit by digit. A whole value written with a fraction or an exponent
    /// (`1.0`, `1e2`, `1.5e1`) is accepted, as `JSONDecoder` accepts it, but computed exactly from the
    /// digits, never through a `Double`.
    func integer<T: FixedWidthInteger>(at index: Int, as type: T.Type) -> T? {
        let node = nodes[index]
        return bytes.withUnsafeBufferPointer { buffer -> T? in
            var position = Int(node.start)
            let end = Int(node.end)
            guard position < end else { return nil }
            let negative = buffer[position] == UInt8(ascii: "-")
            if negative { position += 1 }
            guard position < end else { return nil }
            var value: T = 0
            while position < end {
                // A fraction, an exponent (which may make a long significand fit) or an overflow: the
                // exact, slower reading decides.
                let digit = buffer[position] &- UInt8(ascii: "0")
                guard digit < 10 else { return Self.wholeNumber(UnsafeBufferPointer(rebasing: buffer[Int(node.start)..<end]), as: type) }
                let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
                let (added, overflow2) = negative
                    ? shifted.subtractingReportingOverflow(T(digit))
                    : shifted.addingReportingOverflow(T(digit))
                guard !overflow1, !overflow2 else { return Self.wholeNumber(UnsafeBufferPointer(rebasing: buffer[Int(node.start)..<end]), as: type) }
                value = added
                position += 1
            }
            return value
        }
    }

    /// The number at `index` as a `Double` (the correctly rounded conversion of its text), or `nil`
    /// when it is not finite or is a non-zero number too small to be told from zero.
    func double(at index: Int) -> Double? {
        // Integer syntax below 2^53 converts exactly; anything else (and -0) goes through the standard
        // conversion.
        let node = nodes[index]
        let isPlainInteger = !bytes[Int(node.start)..<Int(node.end)].contains { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") }
        if isPlainInteger, let integer = integer(at: index, as: Int64.self), integer.magnitude < 1 << 53,
           integer != 0 || bytes[Int(node.start)] != UInt8(ascii: "-") {
            return Double(integer)
        }
        guard let double = Double(text(at: index)), double.isFinite else { return nil }
        if double == 0, hasNonZeroSignificand(at: index) { return nil }
        return double
    }

    /// The number at `index` as a `Float`, under the same rules as ``double(at:)``.
    func float(at index: Int) -> Float? {
        guard let float = Float(text(at: index)), float.isFinite else { return nil }
        if float == 0, hasNonZeroSignificand(at: index) { return nil }
        return float
    }

    /// Whether the number at `index` has a non-zero digit before its exponent.
    private func hasNonZeroSignificand(at index: Int) -> Bool {
        let node = nodes[index]
        for position in Int(node.start)..<Int(node.end) {
            switch bytes[position] {
            case UInt8(ascii: "e"), UInt8(ascii: "E"): return false
            case UInt8(ascii: "1")...UInt8(ascii: "9"): return true
            default: continue
            }
        }
        return false
    }

    /// The exact value of a number in fraction or exponent form (`text` is an RFC 8259 number the
    /// parser validated), or `nil` when it is not whole or does not fit `T`.
    private static func wholeNumber<T: FixedWidthInteger>(_ text: UnsafeBufferPointer<UInt8>, as type: T.Type) -> T? {
        var position = 0
        let negative = text.first == UInt8(ascii: "-")
        if negative { position += 1 }
        // The significand's digits, without the decimal point, and how many followed the point.
        var digits: [UInt8] = []
        digits.reserveCapacity(text.count)
        var fractionDigits = 0
        var inFraction = false
        while position < text.count {
            let byte = text[position]
            if byte == UInt8(ascii: ".") {
                inFraction = true
            } else if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                break
            } else {
                let digit = byte &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                digits.append(digit)
                if inFraction { fractionDigits += 1 }
            }
            position += 1
        }
        // The exponent, saturated far beyond any exponent a fitting integer can have.
        var exponent = 0
        if position < text.count {
            position += 1
            var exponentNegative = false
            if position < text.count, text[position] == UInt8(ascii: "-") || text[position] == UInt8(ascii: "+") {
                exponentNegative = text[position] == UInt8(ascii: "-")
                position += 1
            }
            while position < text.count {
                let digit = text[position] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                exponent = min(exponent * 10 + Int(digit), 1 << 40)
                position += 1
            }
            if exponentNegative { exponent = -exponent }
        }
        // value = digits × 10^scale
        var scale = exponent - fractionDigits
        guard let firstNonZero = digits.firstIndex(where: { $0 != 0 }) else { return 0 }
        var last = digits.count
        while scale < 0, last > firstNonZero, digits[last - 1] == 0 {
            last -= 1
            scale += 1
        }
        guard scale >= 0, last - firstNonZero + scale <= 40 else { return nil }  // a fraction, or far too large
        var value: T = 0
        func append(_ digit: UInt8) -> Bool {
            let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (added, overflow2) = negative
                ? shifted.subtractingReportingOverflow(T(digit))
                : shifted.addingReportingOverflow(T(digit))
            value = added
            return !overflow1 && !overflow2
        }
        for digit in digits[firstNonZero..<last] {
            guard append(digit) else { return nil }
        }
        for _ in 0..<scale {
            guard append(0) else { return nil }
        }
        return value
    }
}
