import Foundation

/// Decodes `Decodable` models from a ``JSONDocument`` with App Store conventions: the behaviour of
/// Foundation's `JSONDecoder` configured by ``AppStoreJSON/makeDecoder()`` (the same errors at the
/// same coding paths), without its cost.
///
/// `Date` decodes from a number of milliseconds since 1970 (fractions allowed); integers decode
/// exactly from the number's digits, and a number that does not fit the field's type is reported at
/// that field. Coding paths are built only when an error needs one.
enum JSONDocumentDecoder {
    /// Parses `json` and decodes a `T` from it.
    ///
    /// - Throws: `DecodingError.dataCorrupted` with an empty coding path when `json` is not
    ///   acceptable JSON; other `DecodingError`s, at the failing field, when it does not fit `T`.
    static func decode<T: Decodable>(_ type: T.Type, from json: Data) throws -> (T, JSONDocument) {
        let document: JSONDocument
        do {
            document = try JSONParser.parse(Array(json))
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "Invalid JSON: \(error)."))
        }
        return (try ValueDecoder(document: document, index: 0, parentPath: [], key: nil).decodeValue(type), document)
    }
}

/// A `Decoder` positioned at one value of a document.
struct ValueDecoder: Decoder {
    let document: JSONDocument
    let index: Int
    /// The path of the container holding this value, and this value's key in it.
    let parentPath: [any CodingKey]
    let key: (any CodingKey)?

    var codingPath: [any CodingKey] { key.map { parentPath + [$0] } ?? parentPath }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    var node: JSONDocument.Node { document.nodes[index] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard node.kind == .object else {
            throw DecodingError.typeMismatch([String: Any].self, .init(codingPath: codingPath, debugDescription: "Expected to decode Dictionary<String, Any> but found \(describe(node.kind)) instead."))
        }
        return KeyedDecodingContainer(DocumentKeyedContainer<Key>(document: document, object: index, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard node.kind == .array else {
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
            guard node.kind == .number else { throw mismatch(type) }
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
        let double = try decode(Double.self)
        guard abs(double) <= Double(Float.greatestFiniteMagnitude) else {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "Parsed JSON number <\(document.text(at: index))> does not fit in Float."))
        }
        return Float(double)
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
