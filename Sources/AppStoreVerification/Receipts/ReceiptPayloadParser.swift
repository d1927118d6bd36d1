import Foundation

/// Reads an app receipt's payload: a DER `SET OF SEQUENCE { type INTEGER, version INTEGER, value
/// OCTET STRING }`, whose in-app purchase attributes (type 17) hold a nested SET of the same shape.
///
/// Strict: the SET must span the payload exactly (trailing bytes are an error), each attribute has
/// exactly its three elements, typed values have exactly the type Apple documents and nothing after
/// it, a single-valued attribute appears at most once. Depth is bounded by construction: only
/// attribute 17 of the outer SET is read as a nested SET; anything deeper stays raw bytes.
enum ReceiptPayloadParser {
    /// The most attributes read from one SET (an in-app purchase is one attribute of the outer SET).
    static let maximumFieldsPerSet = 200_000

    /// Which SET is read, for messages: built into text only when a message is.
    enum SetName: CustomStringConvertible {
        case receipt
        case inAppPurchase(Int)

        var description: String {
            switch self {
            case .receipt: "the receipt"
            case .inAppPurchase(let index): "in-app purchase \(index)"
            }
        }
    }

    /// The attributes of one SET, and where each value's contents are in the bytes read.
    struct ParsedSet {
        /// The bytes the SET was read from.
        let bytes: [UInt8]
        /// The attributes, in receipt order.
        let fields: [ReceiptField]
        /// Where each attribute's value contents are in ``bytes`` (parallel to ``fields``).
        let valueRanges: [Range<Int>]
    }

    /// The attributes of the SET that spans exactly `window` of `bytes`.
    static func fields(_ bytes: [UInt8], window: Range<Int>, in what: SetName) throws(ReceiptFormatError) -> ParsedSet {
        var outer = ReceiptDERReader(bytes, window: window)
        let set = try outer.read(ReceiptDERReader.Tag.set, "\(what)'s attribute SET")
        guard outer.isAtEnd else {
            throw ReceiptFormatError("\(window.upperBound - set.encoding.upperBound) trailing bytes follow \(what)'s attribute SET")
        }
        var reader = outer.reader(inside: set)
        var fields: [ReceiptField] = []
        var valueRanges: [Range<Int>] = []
        // An attribute takes at least 11 bytes; real ones about 20 to 60.
        let estimate = min(set.contents.count / 24 + 4, 4_096)
        fields.reserveCapacity(estimate)
        valueRanges.reserveCapacity(estimate)
        while !reader.isAtEnd {
            guard fields.count < maximumFieldsPerSet else {
                throw ReceiptFormatError("\(what) has more than \(maximumFieldsPerSet) attributes")
            }
            let position = fields.count
            let sequence = try reader.read(ReceiptDERReader.Tag.sequence, "\(what)'s attribute \(position)")
            var inside = reader.reader(inside: sequence)
            let typeElement = try inside.read(ReceiptDERReader.Tag.integer, "the type of \(what)'s attribute \(position)")
            let type = try inside.integer(typeElement, "the type of \(what)'s attribute \(position)")
            let versionElement = try inside.read(ReceiptDERReader.Tag.integer, "the version of \(what)'s attribute \(position) (type \(type))")
            let version = try inside.integer(versionElement, "the version of \(what)'s attribute \(position) (type \(type))")
            let value = try inside.read(ReceiptDERReader.Tag.octetString, "the value of \(what)'s attribute \(position) (type \(type))")
            guard inside.isAtEnd else {
                throw ReceiptFormatError("\(what)'s attribute \(position) (type \(type)) has elements after its value")
            }
            guard type >= 0, type <= Int64(Int32.max), version >= Int64(Int32.min), version <= Int64(Int32.max) else {
                throw ReceiptFormatError("\(what)'s attribute \(position) has type \(type) and version \(version), outside the range receipts use")
            }
            fields.append(ReceiptField(type: Int(type), version: Int(version), value: Data(bytes[value.contents])))
            valueRanges.append(value.contents)
        }
        return ParsedSet(bytes: bytes, fields: fields, valueRanges: valueRanges)
    }

    /// Typed values of one SET's attributes, with the single-valued ones checked for duplicates.
    struct TypedFields {
        let set: ParsedSet
        let what: SetName
        /// The types typed by the caller, and the index of the attribute of each type (-1: absent).
        private let types: [Int]
        private var indices: [Int]

        /// Indexes `set`; an attribute whose type is in `singleValued` may appear only once.
        init(_ set: ParsedSet, singleValued: [Int], what: SetName) throws(ReceiptFormatError) {
            self.set = set
            self.what = what
            self.types = singleValued
            var indices = [Int](repeating: -1, count: singleValued.count)
            for (index, field) in set.fields.enumerated() {
                guard let slot = singleValued.firstIndex(of: field.type) else { continue }
                guard indices[slot] < 0 else {
                    throw ReceiptFormatError("\(what) has attribute \(field.type) twice; it is single-valued")
                }
                indices[slot] = index
            }
            self.indices = indices
        }

        /// The index in the SET of the attribute of `type`, if present.
        private func index(of type: Int) -> Int? {
            guard let slot = types.firstIndex(of: type), indices[slot] >= 0 else { return nil }
            return indices[slot]
        }

        /// The one element an attribute's value holds, with the reader it was read with.
        private func element(_ type: Int, tag: UInt8) throws(ReceiptFormatError) -> ReceiptDERReader.Element? {
            guard let index = index(of: type) else { return nil }
            let window = set.valueRanges[index]
            var reader = ReceiptDERReader(set.bytes, window: window)
            let element = try reader.read(tag, "\(what)'s attribute \(type)'s value")
            guard reader.isAtEnd else {
                throw ReceiptFormatError("\(what)'s attribute \(type)'s value has \(window.upperBound - element.encoding.upperBound) bytes after \(ReceiptDERReader.name(of: tag))")
            }
            return element
        }

        /// A UTF8String attribute.
        func string(_ type: Int) throws(ReceiptFormatError) -> String? {
            guard let element = try element(type, tag: ReceiptDERReader.Tag.utf8String) else { return nil }
            // What String(validating:as:) does, which needs macOS 15: decoding repairs invalid
            // UTF-8 with U+FFFD, so the text is valid exactly when it re-encodes to the same bytes.
            let bytes = set.bytes[element.contents]
            let text = String(decoding: bytes, as: UTF8.self)
            guard text.utf8.elementsEqual(bytes) else {
                throw ReceiptFormatError("\(what)'s attribute \(type) is a UTF8String that is not valid UTF-8")
            }
            return text
        }

        /// An INTEGER attribute.
        func integer(_ type: Int) throws(ReceiptFormatError) -> Int64? {
            guard let element = try element(type, tag: ReceiptDERReader.Tag.integer) else { return nil }
            return try ReceiptDERReader(set.bytes, window: element.contents).integer(element, "\(what)'s attribute \(type)")
        }

        /// An INTEGER attribute that is 0 or 1.
        func flag(_ type: Int) throws(ReceiptFormatError) -> Bool? {
            guard let value = try integer(type) else { return nil }
            guard value == 0 || value == 1 else {
                throw ReceiptFormatError("\(what)'s attribute \(type) is \(value); it is a flag, 0 or 1")
            }
            return value == 1
        }

        /// An IA5String attribute holding an RFC 3339 date; the empty string is no date.
        func date(_ type: Int) throws(ReceiptFormatError) -> Date? {
            guard let element = try element(type, tag: ReceiptDERReader.Tag.ia5String) else { return nil }
            let text = set.bytes[element.contents]
            guard text.allSatisfy({ $0 < 0x80 }), let date = ReceiptDate.parse(text) else {
                throw ReceiptFormatError("\(what)'s attribute \(type) (\"\(LogSafeText.escaping(String(decoding: text.prefix(64), as: UTF8.self)))\") is not an RFC 3339 date")
            }
            return date
        }

        /// The raw value bytes of an attribute.
        func bytes(_ type: Int) -> Data? {
            index(of: type).map { set.fields[$0].value }
        }
    }
}
