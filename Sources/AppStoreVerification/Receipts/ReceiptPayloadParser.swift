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

    /// The attributes of the SET that spans exactly `window` of `bytes`.
    static func fields(_ bytes: [UInt8], window: Range<Int>, in what: String) throws(ReceiptFormatError) -> [ReceiptField] {
        var outer = ReceiptDERReader(bytes, window: window)
        let set = try outer.read(ReceiptDERReader.Tag.set, "\(what)'s attribute SET")
        guard outer.isAtEnd else {
            throw ReceiptFormatError("\(window.upperBound - set.encoding.upperBound) trailing bytes follow \(what)'s attribute SET")
        }
        var reader = outer.reader(inside: set)
        var fields: [ReceiptField] = []
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
        }
        return fields
    }

    /// Typed values of one SET's attributes, with the single-valued ones checked for duplicates.
    struct TypedFields {
        let fields: [ReceiptField]
        let what: String
        private var indexByType: [Int: Int] = [:]

        /// Indexes `fields`; an attribute in `singleValued` that appears twice is an error.
        init(_ fields: [ReceiptField], singleValued: Set<Int>, what: String) throws(ReceiptFormatError) {
            self.fields = fields
            self.what = what
            for (index, field) in fields.enumerated() where singleValued.contains(field.type) {
                guard indexByType[field.type] == nil else {
                    throw ReceiptFormatError("\(what) has attribute \(field.type) twice; it is single-valued")
                }
                indexByType[field.type] = index
            }
        }

        private func element(_ type: Int, tag: UInt8) throws(ReceiptFormatError) -> (reader: ReceiptDERReader, element: ReceiptDERReader.Element)? {
            guard let index = indexByType[type] else { return nil }
            let bytes = [UInt8](fields[index].value)
            var reader = ReceiptDERReader(bytes, window: 0..<bytes.count)
            let element = try reader.read(tag, "\(what)'s attribute \(type)'s value")
            guard reader.isAtEnd else {
                throw ReceiptFormatError("\(what)'s attribute \(type)'s value has \(bytes.count - element.encoding.upperBound) bytes after \(ReceiptDERReader.name(of: tag))")
            }
            return (reader, element)
        }

        /// A UTF8String attribute.
        func string(_ type: Int) throws(ReceiptFormatError) -> String? {
            guard let found = try element(type, tag: ReceiptDERReader.Tag.utf8String) else { return nil }
            let (reader, element) = (found.reader, found.element)
            guard let text = String(data: Data(reader.bytes[element.contents]), encoding: .utf8) else {
                throw ReceiptFormatError("\(what)'s attribute \(type) is a UTF8String that is not valid UTF-8")
            }
            return text
        }

        /// An INTEGER attribute.
        func integer(_ type: Int) throws(ReceiptFormatError) -> Int64? {
            guard let found = try element(type, tag: ReceiptDERReader.Tag.integer) else { return nil }
            let (reader, element) = (found.reader, found.element)
            return try reader.integer(element, "\(what)'s attribute \(type)")
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
            guard let found = try element(type, tag: ReceiptDERReader.Tag.ia5String) else { return nil }
            let (reader, element) = (found.reader, found.element)
            let text = Array(reader.bytes[element.contents])
            guard text.allSatisfy({ $0 < 0x80 }), let date = ReceiptDate.parse(text) else {
                throw ReceiptFormatError("\(what)'s attribute \(type) (\"\(String(decoding: text.prefix(64), as: UTF8.self))\") is not an RFC 3339 date")
            }
            return date
        }

        /// The raw value bytes of an attribute.
        func bytes(_ type: Int) -> Data? {
            indexByType[type].map { fields[$0].value }
        }
    }
}
