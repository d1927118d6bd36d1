/// A strict RFC 8259 JSON parser that builds a ``JSONDocument`` tape in one pass.
///
/// Beyond the grammar (no comments, trailing commas, leading zeros, `NaN`, control characters in
/// strings, lone surrogates, invalid UTF-8, or text after the value), it refuses an object that names
/// a member twice: parsers disagree on which duplicate wins (Python keeps the last, Foundation on
/// Linux the first), so such a payload is ambiguous. Nesting is limited to ``maximumDepth``.
struct JSONParser {
    /// The deepest nesting accepted; App Store payloads nest three levels.
    static let maximumDepth = 128
    /// The largest document accepted (the tape stores 32-bit offsets).
    static let maximumLength = Int(Int32.max)

    /// Why the text is not acceptable JSON.
    struct Failure: Error, CustomStringConvertible {
        var message: String
        var offset: Int
        var description: String { "\(message) at offset \(offset)" }
    }

    private let text: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0
    private var nodes: [JSONDocument.Node] = []

    private init(_ text: UnsafeBufferPointer<UInt8>) {
        self.text = text
        nodes.reserveCapacity(max(16, text.count / 12))
    }

    /// Parses `bytes`, which must hold exactly one JSON value.
    static func parse(_ bytes: [UInt8]) throws(Failure) -> JSONDocument {
        guard bytes.count < maximumLength else { throw Failure(message: "the document is too large", offset: 0) }
        let result: Result<[JSONDocument.Node], Failure> = bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(buffer)
            return parser.parseDocument()
        }
        return JSONDocument(bytes: bytes, nodes: try result.get())
    }

    private mutating func parseDocument() -> Result<[JSONDocument.Node], Failure> {
        do throws(Failure) {
            skipWhiteSpace()
            try parseValue()
            skipWhiteSpace()
            guard index == text.count else { throw failure("unexpected text after the JSON value") }
            return .success(nodes)
        } catch {
            return .failure(error)
        }
    }

    // MARK: - Values

    private mutating func parseValue() throws(Failure) {
        guard let byte = peek() else { throw failure("unexpected end of input, expected a value") }
        switch byte {
        case UInt8(ascii: "{"): try parseObject()
        case UInt8(ascii: "["): try parseArray()
        case UInt8(ascii: "\""): _ = try parseString()
        case UInt8(ascii: "t"): try parseLiteral("true", .true)
        case UInt8(ascii: "f"): try parseLiteral("false", .false)
        case UInt8(ascii: "n"): try parseLiteral("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try parseNumber()
        default: throw failure("unexpected character \(Self.show(byte)), expected a value")
        }
    }

    /// Appends a container node to be completed by `close`.
    private mutating func open(_ kind: JSONDocument.Kind) throws(Failure) -> Int {
        depth += 1
        guard depth <= Self.maximumDepth else { throw failure("nesting deeper than \(Self.maximumDepth) levels") }
        nodes.append(JSONDocument.Node(kind: kind, hasEscapes: false, start: Int32(index), end: 0, next: 0, count: 0))
        advance()
        return nodes.count - 1
    }

    private mutating func close(_ container: Int, count: Int) {
        advance()
        depth -= 1
        nodes[container].end = Int32(index)
        nodes[container].next = Int32(nodes.count)
        nodes[container].count = Int32(count)
    }

    private mutating func parseObject() throws(Failure) {
        let container = try open(.object)
        var names = MemberNames()
        skipWhiteSpace()
        if peek() == UInt8(ascii: "}") {
            close(container, count: 0)
            return
        }
        var count = 0
        while true {
            skipWhiteSpace()
            guard peek() == UInt8(ascii: "\"") else { throw failure("expected a member name in double quotes") }
            let nameOffset = index
            let name = try parseString()
            if !names.insert(nodeAt: name, of: nodes, in: text) {
                throw Failure(message: "duplicate key \(quotedName(name)) (parsers disagree on which value wins)", offset: nameOffset)
            }
            // An escaped name's decoded length is unknown here: it may match any length.
            nodes[container].nameLengths |= nodes[name].hasEscapes ? ~0 : 1 << UInt64((nodes[name].end - nodes[name].start) & 63)
            skipWhiteSpace()
            guard peek() == UInt8(ascii: ":") else { throw failure("expected ':' after a member name") }
            advance()
            skipWhiteSpace()
            try parseValue()
            count += 1
            skipWhiteSpace()
            switch peek() {
            case UInt8(ascii: ","): advance()
            case UInt8(ascii: "}"):
                close(container, count: count)
                return
            default: throw failure("expected ',' or '}' in an object")
            }
        }
    }

    private mutating func parseArray() throws(Failure) {
        let container = try open(.array)
        skipWhiteSpace()
        if peek() == UInt8(ascii: "]") {
            close(container, count: 0)
            return
        }
        var count = 0
        while true {
            skipWhiteSpace()
            try parseValue()
            count += 1
            skipWhiteSpace()
            switch peek() {
            case UInt8(ascii: ","): advance()
            case UInt8(ascii: "]"):
                close(container, count: count)
                return
            default: throw failure("expected ',' or ']' in an array")
            }
        }
    }

    private mutating func appendLeaf(_ kind: JSONDocument.Kind, start: Int, end: Int, hasEscapes: Bool = false) {
        nodes.append(JSONDocument.Node(kind: kind, hasEscapes: hasEscapes, start: Int32(start), end: Int32(end), next: Int32(nodes.count + 1), count: 0))
    }

    private mutating func parseLiteral(_ literal: StaticString, _ kind: JSONDocument.Kind) throws(Failure) {
        let start = index
        let bytes = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        for expected in bytes {
            guard peek() == expected else { throw failure("invalid literal, expected \(literal)") }
            advance()
        }
        appendLeaf(kind, start: start, end: index)
    }

    // MARK: - Numbers

    private mutating func parseNumber() throws(Failure) {
        let start = index
        if peek() == UInt8(ascii: "-") { advance() }
        guard let first = peek(), isDigit(first) else { throw failure("expected a digit") }
        advance()
        if first == UInt8(ascii: "0"), let next = peek(), isDigit(next) {
            throw failure("a number may not have a leading zero")
        }
        skipDigits()
        if peek() == UInt8(ascii: ".") {
            advance()
            guard let digit = peek(), isDigit(digit) else { throw failure("expected a digit after the decimal point") }
            skipDigits()
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            advance()
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { advance() }
            guard let digit = peek(), isDigit(digit) else { throw failure("expected a digit in the exponent") }
            skipDigits()
        }
        appendLeaf(.number, start: start, end: index)
    }

    private mutating func skipDigits() {
        while let byte = peek(), isDigit(byte) { advance() }
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    // MARK: - Strings

    /// Validates a string (escapes, control characters, UTF-8) and appends its node; returns its
    /// tape index.
    private mutating func parseString() throws(Failure) -> Int {
        advance()  // "
        let start = index
        var hasEscapes = false
        var asciiOnly = true
        while true {
            // Skip the run of plain ASCII up to the next byte that needs a look.
            var position = index
            let count = text.count
            while position < count {
                let byte = text[position]
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 { break }
                position += 1
            }
            index = position
            guard let byte = peek() else { throw failure("unterminated string") }
            switch byte {
            case UInt8(ascii: "\""):
                let end = index
                advance()
                if !asciiOnly, !Self.isValidUTF8(UnsafeBufferPointer(rebasing: text[start..<end])) {
                    throw Failure(message: "a string is not valid UTF-8", offset: start)
                }
                appendLeaf(.string, start: start, end: end, hasEscapes: hasEscapes)
                return nodes.count - 1
            case UInt8(ascii: "\\"):
                hasEscapes = true
                advance()
                try validateEscape()
            case ..<0x20:
                throw failure("control character \(Self.show(byte)) inside a string")
            default:
                if byte >= 0x80 { asciiOnly = false }
                advance()
            }
        }
    }

    /// Whether `bytes` are well-formed UTF-8 (no overlong forms, surrogates or values past
    /// U+10FFFF), checked without building a string.
    private static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let hadError = transcode(bytes.makeIterator(), from: UTF8.self, to: UTF32.self, stoppingOnError: true) { _ in }
        return !hadError
    }

    private mutating func validateEscape() throws(Failure) {
        guard let byte = peek() else { throw failure("unterminated escape sequence") }
        advance()
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return
        case UInt8(ascii: "u"):
            let unit = try parseHex4()
            if (0xD800...0xDBFF).contains(unit) {
                guard peek() == UInt8(ascii: "\\") else { throw failure("a high surrogate without its low surrogate") }
                advance()
                guard peek() == UInt8(ascii: "u") else { throw failure("a high surrogate without its low surrogate") }
                advance()
                guard (0xDC00...0xDFFF).contains(try parseHex4()) else { throw failure("a high surrogate without its low surrogate") }
            } else if (0xDC00...0xDFFF).contains(unit) {
                throw failure("a lone low surrogate")
            }
        default:
            throw failure("invalid escape sequence \\\(Self.show(byte))")
        }
    }

    private mutating func parseHex4() throws(Failure) -> UInt16 {
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard let byte = peek(), let digit = Self.hexValue(byte) else { throw failure("invalid hexadecimal digit in a \\u escape") }
            value = value << 4 | UInt16(digit)
            advance()
        }
        return value
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The UTF-8 bytes of a string's content with its (already validated) escapes decoded.
    static func unescape(_ content: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(content.count)
        var index = 0
        func hex4(_ at: Int) -> UInt32 {
            (0..<4).reduce(0) { $0 << 4 | UInt32(hexValue(content[at + $1]) ?? 0) }
        }
        while index < content.count {
            let byte = content[index]
            guard byte == UInt8(ascii: "\\"), index + 1 < content.count else {
                bytes.append(byte)
                index += 1
                continue
            }
            let escaped = content[index + 1]
            index += 2
            switch escaped {
            case UInt8(ascii: "b"): bytes.append(0x08)
            case UInt8(ascii: "f"): bytes.append(0x0C)
            case UInt8(ascii: "n"): bytes.append(0x0A)
            case UInt8(ascii: "r"): bytes.append(0x0D)
            case UInt8(ascii: "t"): bytes.append(0x09)
            case UInt8(ascii: "u") where index + 4 <= content.count:
                var scalar = hex4(index)
                index += 4
                if (0xD800...0xDBFF).contains(scalar), index + 6 <= content.count {
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (hex4(index + 2) - 0xDC00)
                    index += 6
                }
                if let unicode = Unicode.Scalar(scalar) {
                    bytes.append(contentsOf: String(Character(unicode)).utf8)
                }
            default: bytes.append(escaped)  // \" \\ \/
            }
        }
        return bytes
    }

    // MARK: - Bytes

    private mutating func skipWhiteSpace() {
        while let byte = peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { advance() }
    }

    private func peek() -> UInt8? { index < text.count ? text[index] : nil }

    private mutating func advance() { index += 1 }

    private func failure(_ message: String) -> Failure { Failure(message: message, offset: index) }

    /// The member name at tape index `node`, decoded and quoted, cut to 80 characters, for messages.
    private func quotedName(_ node: Int) -> String {
        let content = UnsafeBufferPointer(rebasing: text[Int(nodes[node].start)..<Int(nodes[node].end)])
        var name = nodes[node].hasEscapes ? String(decoding: Self.unescape(content), as: UTF8.self) : String(decoding: content, as: UTF8.self)
        if name.count > 80 { name = String(name.prefix(80)) + "…" }
        return "\"" + LogSafeText.escaping(name) + "\""
    }

    static func show(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "0x" + String(byte, radix: 16, uppercase: true)
    }
}
