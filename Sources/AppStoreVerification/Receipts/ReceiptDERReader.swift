/// A strict DER reader for the payload of an app receipt (the content the PKCS#7 signature covers).
///
/// It reads one tag-length-value element at a time inside a window of a byte array and never looks
/// past that window: every length is checked against the bytes that remain before it is used. Only
/// what DER allows is accepted: low-number tags, definite lengths in their shortest form (no
/// indefinite lengths, no leading zero length octets), lengths below ``maximumLength``.
struct ReceiptDERReader {
    /// One element: its identifier octet and where its contents are.
    struct Element {
        /// The identifier octet (class, constructed bit, tag number).
        let tag: UInt8
        /// Where the contents are in the reader's bytes.
        let contents: Range<Int>
        /// The whole element, identifier and length octets included.
        let encoding: Range<Int>
    }

    /// Identifier octets of the universal types a receipt uses.
    enum Tag {
        static let integer: UInt8 = 0x02
        static let octetString: UInt8 = 0x04
        static let utf8String: UInt8 = 0x0C
        static let ia5String: UInt8 = 0x16
        static let sequence: UInt8 = 0x30
        static let set: UInt8 = 0x31
    }

    /// The longest element accepted: far above any real receipt, far below what could exhaust memory.
    static let maximumLength = 1 << 26

    let bytes: [UInt8]
    private(set) var position: Int
    let end: Int

    /// A reader over `bytes[window]`.
    init(_ bytes: [UInt8], window: Range<Int>) {
        self.bytes = bytes
        self.position = window.lowerBound
        self.end = window.upperBound
    }

    /// Whether every byte of the window has been read.
    var isAtEnd: Bool { position >= end }

    /// Reads the next element.
    ///
    /// - Parameter what: what the element is, for messages ("field 2's value").
    mutating func read(_ what: @autoclosure () -> String) throws(ReceiptFormatError) -> Element {
        let start = position
        guard position < end else {
            throw ReceiptFormatError("\(what()) is missing: the enclosing element ends at byte \(end)")
        }
        let tag = bytes[position]
        guard tag & 0x1F != 0x1F else {
            throw ReceiptFormatError("\(what()) at byte \(start) uses a high tag number, which a receipt never does")
        }
        position += 1
        guard position < end else {
            throw ReceiptFormatError("\(what()) at byte \(start) has no length octet")
        }
        let first = bytes[position]
        position += 1
        var length = 0
        if first < 0x80 {
            length = Int(first)
        } else {
            let count = Int(first & 0x7F)
            guard count != 0 else {
                throw ReceiptFormatError("\(what()) at byte \(start) has an indefinite length, which DER forbids")
            }
            guard count <= 4 else {
                throw ReceiptFormatError("\(what()) at byte \(start) has a \(count)-octet length; at most 4 are accepted")
            }
            guard end - position >= count else {
                throw ReceiptFormatError("\(what()) at byte \(start): its length octets run past the enclosing element")
            }
            guard bytes[position] != 0 else {
                throw ReceiptFormatError("\(what()) at byte \(start) has a length with a leading zero octet, which DER forbids")
            }
            for _ in 0..<count {
                length = length << 8 | Int(bytes[position])
                position += 1
            }
            guard length >= 0x80 else {
                throw ReceiptFormatError("\(what()) at byte \(start) writes a length below 128 in long form, which DER forbids")
            }
        }
        guard length <= Self.maximumLength else {
            throw ReceiptFormatError("\(what()) at byte \(start) is \(length) bytes long; at most \(Self.maximumLength) are accepted")
        }
        guard length <= end - position else {
            throw ReceiptFormatError("\(what()) at byte \(start) says it is \(length) bytes long, but only \(end - position) remain in the enclosing element")
        }
        let contents = position..<(position + length)
        position += length
        return Element(tag: tag, contents: contents, encoding: start..<position)
    }

    /// Reads the next element and requires its tag.
    mutating func read(_ tag: UInt8, _ what: @autoclosure () -> String) throws(ReceiptFormatError) -> Element {
        let element = try read(what())
        guard element.tag == tag else {
            throw ReceiptFormatError("\(what()) at byte \(element.encoding.lowerBound) is \(Self.name(of: element.tag)), not \(Self.name(of: tag))")
        }
        return element
    }

    /// A reader over an element's contents.
    func reader(inside element: Element) -> ReceiptDERReader {
        ReceiptDERReader(bytes, window: element.contents)
    }

    /// The value of a DER INTEGER element that fits in an `Int64`, in its minimal encoding.
    func integer(_ element: Element, _ what: @autoclosure () -> String) throws(ReceiptFormatError) -> Int64 {
        let contents = element.contents
        guard !contents.isEmpty else {
            throw ReceiptFormatError("\(what()) is an INTEGER with no content octets")
        }
        guard contents.count <= 8 else {
            throw ReceiptFormatError("\(what()) is an INTEGER of \(contents.count) octets; at most 8 are accepted")
        }
        if contents.count > 1 {
            let first = bytes[contents.lowerBound], second = bytes[contents.lowerBound + 1]
            guard !(first == 0x00 && second & 0x80 == 0) && !(first == 0xFF && second & 0x80 != 0) else {
                throw ReceiptFormatError("\(what()) is an INTEGER that is not minimally encoded, which DER forbids")
            }
        }
        var value: Int64 = bytes[contents.lowerBound] & 0x80 != 0 ? -1 : 0
        for index in contents {
            value = value << 8 | Int64(bytes[index])
        }
        return value
    }

    /// A name for an identifier octet, for messages.
    static func name(of tag: UInt8) -> String {
        switch tag {
        case Tag.integer: "an INTEGER"
        case Tag.octetString: "an OCTET STRING"
        case Tag.utf8String: "a UTF8String"
        case Tag.ia5String: "an IA5String"
        case Tag.sequence: "a SEQUENCE"
        case Tag.set: "a SET"
        case 0x24: "a constructed OCTET STRING"
        case 0x05: "a NULL"
        default: "an element with tag 0x\(String(tag, radix: 16, uppercase: true))"
        }
    }
}

/// Why a receipt payload does not decode: a sentence saying what and where.
struct ReceiptFormatError: Error, Sendable {
    let message: String
    init(_ message: String) { self.message = message }
}
