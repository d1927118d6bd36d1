import Foundation

/// A `Decoder` positioned at one value of a document.
struct ValueDecoder: Decoder {
    let document: JSONDocument
    /// The value's tape index, or ``absent`` for a member a super decoder asked for that the object
    /// does not have (it reads as `null`, as with `JSONDecoder`).
    let index: Int
    /// The path of the container holding this value, and this value's key in it.
    let parentPath: [any CodingKey]
    let key: (any CodingKey)?

    var codingPath: [any CodingKey] { key.map { parentPath + [$0] } ?? parentPath }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// The ``index`` of a value that is not in the document.
    static let absent = -1
    private static let absentNode = JSONDocument.Node(kind: .null, hasEscapes: false, start: 0, end: 0, next: 0, count: 0)

    var node: JSONDocument.Node { index == Self.absent ? Self.absentNode : document.nodes[index] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard node.kind == .object else {
            if node.kind == .null {
                throw DecodingError.valueNotFound([String: Any].self, .init(codingPath: codingPath, debugDescription: "Cannot get keyed decoding container -- found null value instead."))
            }
            throw DecodingError.typeMismatch([String: Any].self, .init(codingPath: codingPath, debugDescription: "Expected to decode Dictionary<String, Any> but found \(describe(node.kind)) instead."))
        }
        return KeyedDecodingContainer(DocumentKeyedContainer<Key>(document: document, object: index, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard node.kind == .array else {
            if node.kind == .null {
                throw DecodingError.valueNotFound([Any].self, .init(codingPath: codingPath, debugDescription: "Cannot get unkeyed decoding container -- found null value instead."))
            }
            throw DecodingError.typeMismatch([Any].self, .init(codingPath: codingPath, debugDescription: "Expected to decode Array<Any> but found \(describe(node.kind)) instead."))
        }
        return DocumentUnkeyedContainer(document: document, elements: document.elements(of: index), codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    /// Decodes a `T` here: `Date` from milliseconds, everything else through its own `init(from:)`.
    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        // Scalars directly, without their init(from:) and its container existential.
        if type == String.self, let value = try decode(String.self) as? T { return value }
        if type == Int32.self, let value = try integer(Int32.self) as? T { return value }
        if type == Int64.self, let value = try integer(Int64.self) as? T { return value }
        if type == Int.self, let value = try integer(Int.self) as? T { return value }
        if type == Bool.self, let value = try decode(Bool.self) as? T { return value }
        if type == Date.self {
            // A date is read as a Double, so a wrong type is reported as AppStoreJSON.makeDecoder()
            // reports it: "Expected to decode Double".
            guard node.kind == .number else { throw mismatch(Double.self) }
            guard let milliseconds = document.double(at: index) else {
                throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "Parsed JSON number <\(document.text(at: index))> is not a finite number of milliseconds."))
            }
            // T is Date, so the cast always succeeds.
            if let date = Date(timeIntervalSince1970: milliseconds / 1000) as? T { return date }
        }
        return try T(from: self)
    }

    func mismatch(_ type: Any.Type) -> DecodingError {
        if node.kind == .null {
            return DecodingError.valueNotFound(type, .init(codingPath: codingPath, debugDescription: "Expected \(type) value but found null instead."))
        }
        return DecodingError.typeMismatch(type, .init(codingPath: codingPath, debugDescription: "Expected to decode \(type) but found \(describe(node.kind)) instead."))
    }

    private func describe(_ kind: JSONDocument.Kind) -> String {
        switch kind {
        case .null: "null"
        case .true, .false: "bool"
        case .number: "number"
        case .string: "a string"
        case .array: "an array"
        case .object: "a dictionary"
        }
    }
}

extension ValueDecoder: SingleValueDecodingContainer {
    func decodeNil() -> Bool { node.kind == .null }

    func decode(_ type: Bool.Type) throws -> Bool {
        switch node.kind {
        case .true: return true
        case .false: return false
        default: throw mismatch(type)
        }
    }

    func decode(_ type: String.Type) throws -> String {
        guard node.kind == .string else { throw mismatch(type) }
        return document.string(at: index)
    }

    func decode(_ type: Double.Type) throws -> Double {
        guard node.kind == .number else { throw mismatch(type) }
        guard let double = document.double(at: index) else {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "Parsed JSON number <\(document.text(at: index))> does not fit in Double."))
        }
        return double
    }

    func decode(_ type: Float.Type) throws -> Float {
        guard node.kind == .number else { throw mismatch(type) }
        guard let float = document.float(at: index) else {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "Parsed JSON number <\(document.text(at: index))> does not fit in Float."))
        }
        return float
    }

    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(type) }

    /// An integer read exactly from the number's digits; a fraction, an exponent or a value out of
    /// range is refused at this field.
    func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        guard node.kind == .number else { throw mismatch(type) }
        guard let integer = document.integer(at: index, as: type) else {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "Parsed JSON number <\(document.text(at: index))> does not fit in \(T.self)."))
        }
        return integer
    }
}
