import Foundation

/// A strict RFC 8259 JSON parser for payloads.
///
/// Beyond the grammar (no comments, trailing commas, leading zeros, `NaN`, control characters in
/// strings, lone surrogates, invalid UTF-8, or text after the value), it refuses an object that names
/// a member twice: parsers disagree on which duplicate wins (Python keeps the last, Foundation on
/// Linux the first), so such a payload is ambiguous. Nesting is limited to ``maximumDepth``.
struct JSONParser {
    /// The deepest nesting accepted; App Store payloads nest three levels.
    static let maximumDepth = 128

    /// Why the text is not acceptable JSON.
    struct Failure: Error, CustomStringConvertible {
        var message: String
        var offset: Int
        var description: String { "\(message) at offset \(offset)" }
    }

    private let text: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0

    private init(_ text: UnsafeBufferPointer<UInt8>) {
        self.text = text
    }

    /// Parses `json`, which must hold exactly one JSON value.
    static func parse<Bytes: ContiguousBytes>(_ json: Bytes) throws(Failure) -> JSONValue {
        let result: Result<JSONValue, Failure> = json.withUnsafeBytes { raw in
            var parser = JSONParser(raw.bindMemory(to: UInt8.self))
            return parser.parseDocumentResult()
        }
        return try result.get()
    }

    private mutating func parseDocumentResult() -> Result<JSONValue, Failure> {
        do throws(Failure) {
            return .success(try parseDocument())
        } catch {
            return .failure(error)
        }
    }

    private mutating func parseDocument() throws(Failure) -> JSONValue {
        skipWhiteSpace()
        let value = try parseValue()
        skipWhiteSpace()
        guard index == text.count else { throw failure("unexpected text after the JSON value") }
        return value
    }

    // MARK: - Values

    private mutating func parseValue() throws(Failure) -> JSONValue {
        guard let byte = peek() else { throw failure("unexpected end of input, expected a value") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw failure("unexpected character \(Self.show(byte)), expected a value")
        }
    }

    private mutating func parseObject() throws(Failure) -> JSONValue {
        try enter()
        advance()  // {
        var members: [String: JSONValue] = [:]
        skipWhiteSpace()
        if peek() == UInt8(ascii: "}") {
            advance()
            depth -= 1
            return .object(members)
        }
        while true {
            skipWhiteSpace()
            guard peek() == UInt8(ascii: "\"") else { throw failure("expected a member name in double quotes") }
            let nameOffset = index
            let name = try parseString()
            skipWhiteSpace()
            guard peek() == UInt8(ascii: ":") else { throw failure("expected ':' after a member name") }
            advance()
            skipWhiteSpace()
            let value = try parseValue()
            if members.updateValue(value, forKey: name) != nil {
                throw Failure(message: "duplicate member name \"\(name)\" (parsers disagree on which value wins)", offset: nameOffset)
            }
            skipWhiteSpace()
            switch peek() {
            case UInt8(ascii: ","): advance()
            case UInt8(ascii: "}"):
                advance()
                depth -= 1
                return .object(members)
            default: throw failure("expected ',' or '}' in an object")
            }
        }
    }

    private mutating func parseArray() throws(Failure) -> JSONValue {
        try enter()
        advance()  // [
        var elements: [JSONValue] = []
        skipWhiteSpace()
        if peek() == UInt8(ascii: "]") {
            advance()
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhiteSpace()
            elements.append(try parseValue())
            skipWhiteSpace()
            switch peek() {
            case UInt8(ascii: ","): advance()
            case UInt8(ascii: "]"):
                advance()
                depth -= 1
                return .array(elements)
            default: throw failure("expected ',' or ']' in an array")
            }
        }
    }

    private mutating func enter() throws(Failure) {
        depth += 1
        guard depth <= Self.maximumDepth else { throw failure("nesting deeper than \(Self.maximumDepth) levels") }
    }

    // MARK: - Numbers

    private mutating func parseNumber() throws(Failure) -> JSONValue {
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
        return .number(String(decoding: UnsafeBufferPointer(rebasing: text[start..<index]), as: UTF8.self))
    }

    private mutating func skipDigits() {
        while let byte = peek(), isDigit(byte) { advance() }
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    // MARK: - Strings

    private mutating func parseString() throws(Failure) -> String {
        advance()  // "
        let start = index
        // Fast path: no escape sequence, so the string is the bytes between the quotes.
        while let byte = peek() {
            if byte == UInt8(ascii: "\"") {
                let bytes = UnsafeBufferPointer(rebasing: text[start..<index])
                advance()
                guard let string = String(validating: bytes, as: UTF8.self) else {
                    throw failure("a string is not valid UTF-8")
                }
                return string
            }
            if byte == UInt8(ascii: "\\") { break }
            guard byte >= 0x20 else { throw failure("control character \(Self.show(byte)) inside a string") }
            advance()
        }
        // Slow path: decode escapes into bytes.
        var bytes = Array(text[start..<index])
        while true {
            guard let byte = peek() else { throw failure("unterminated string") }
            advance()
            switch byte {
            case UInt8(ascii: "\""):
                guard let string = String(validating: bytes, as: UTF8.self) else {
                    throw failure("a string is not valid UTF-8")
                }
                return string
            case UInt8(ascii: "\\"):
                try parseEscape(into: &bytes)
            case ..<0x20:
                throw failure("control character \(Self.show(byte)) inside a string")
            default:
                bytes.append(byte)
            }
        }
    }

    private mutating func parseEscape(into bytes: inout [UInt8]) throws(Failure) {
        guard let byte = peek() else { throw failure("unterminated escape sequence") }
        advance()
        switch byte {
        case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\"))
        case UInt8(ascii: "/"): bytes.append(UInt8(ascii: "/"))
        case UInt8(ascii: "b"): bytes.append(0x08)
        case UInt8(ascii: "f"): bytes.append(0x0C)
        case UInt8(ascii: "n"): bytes.append(0x0A)
        case UInt8(ascii: "r"): bytes.append(0x0D)
        case UInt8(ascii: "t"): bytes.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = UInt32(try parseHex4())
            if (0xD800...0xDBFF).contains(scalar) {
                guard peek() == UInt8(ascii: "\\") else { throw failure("a high surrogate without its low surrogate") }
                advance()
                guard peek() == UInt8(ascii: "u") else { throw failure("a high surrogate without its low surrogate") }
                advance()
                let low = UInt32(try parseHex4())
                guard (0xDC00...0xDFFF).contains(low) else { throw failure("a high surrogate without its low surrogate") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw failure("a lone low surrogate")
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw failure("an invalid Unicode escape") }
            bytes.append(contentsOf: String(Character(unicode)).utf8)
        default:
            throw failure("invalid escape sequence \\\(Self.show(byte))")
        }
    }

    private mutating func parseHex4() throws(Failure) -> UInt16 {
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard let byte = peek() else { throw failure("unterminated \\u escape") }
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("invalid hexadecimal digit in a \\u escape")
            }
            value = value << 4 | UInt16(digit)
            advance()
        }
        return value
    }

    // MARK: - Bytes

    private mutating func expectLiteral(_ literal: StaticString) throws(Failure) {
        let bytes = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        for expected in bytes {
            guard peek() == expected else { throw failure("invalid literal, expected \(literal)") }
            advance()
        }
    }

    private mutating func skipWhiteSpace() {
        while let byte = peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { advance() }
    }

    private func peek() -> UInt8? { index < text.count ? text[index] : nil }

    private mutating func advance() { index += 1 }

    private func failure(_ message: String) -> Failure { Failure(message: message, offset: index) }

    private static func show(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "0x" + String(byte, radix: 16, uppercase: true)
    }
}
