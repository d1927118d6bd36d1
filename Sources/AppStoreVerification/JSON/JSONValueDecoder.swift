import Foundation

/// Decodes `Decodable` models from a parsed ``JSONValue`` with App Store conventions, behaving like
/// Foundation's `JSONDecoder` configured by ``AppStoreJSON/makeDecoder()`` (same errors, same coding
/// paths) but without its cost: the payload is parsed once, strictly, and read in place.
///
/// `Date` decodes from a number of milliseconds since 1970 (fractions allowed); integers decode
/// exactly from the number's text, and a number that does not fit the field's type is reported at
/// that field.
struct JSONValueDecoder {
    /// Parses `json` and decodes a `T` from it.
    ///
    /// - Throws: `DecodingError.dataCorrupted` with an empty coding path when `json` is not
    ///   acceptable JSON; other `DecodingError`s, at the failing field, when it does not fit `T`.
    static func decode<T: Decodable>(_ type: T.Type, from json: Data) throws -> T {
        let value: JSONValue
        do {
            value = try JSONParser.parse(json)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "Invalid JSON: \(error)."))
        }
        return try ValueDecoder(value: value, codingPath: []).decodeValue(T.self)
    }
}

/// A `Decoder` positioned at one value of the tree.
struct ValueDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else {
            throw DecodingError.typeMismatch([String: Any].self, .init(codingPath: codingPath, debugDescription: "Expected to decode a dictionary but found \(value.typeDescription) instead."))
        }
        return KeyedDecodingContainer(KeyedValueContainer<Key>(members: members, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else {
            throw DecodingError.typeMismatch([Any].self, .init(codingPath: codingPath, debugDescription: "Expected to decode an array but found \(value.typeDescription) instead."))
        }
        return UnkeyedValueContainer(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    /// Decodes a `T` from this value: `Date` from milliseconds, everything else through its own
    /// `init(from:)`.
    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if type == Date.self {
            let milliseconds = try decode(Double.self)
            guard milliseconds.isFinite else {
                throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "A date must be a finite number of milliseconds since 1970."))
            }
            // The cast cannot fail: T is Date.
            guard let date = Date(timeIntervalSince1970: milliseconds / 1000) as? T else {
                throw DecodingError.typeMismatch(type, .init(codingPath: codingPath, debugDescription: "Expected a date."))
            }
            return date
        }
        return try T(from: self)
    }
}

extension ValueDecoder: SingleValueDecodingContainer {
    func decodeNil() -> Bool {
        if case .null = value { return true }
        return false
    }

    func decode(_ type: Bool.Type) throws -> Bool {
        guard case .bool(let bool) = value else { throw mismatch(type) }
        return bool
    }

    func decode(_ type: String.Type) throws -> String {
        guard case .string(let string) = value else { throw mismatch(type) }
        return string
    }

    func decode(_ type: Double.Type) throws -> Double {
        guard case .number(let text) = value else { throw mismatch(type) }
        guard let double = Double(text), double.isFinite else {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "Parsed JSON number <\(text)> does not fit in Double."))
        }
        return double
    }

    func decode(_ type: Float.Type) throws -> Float {
        let double = try decode(Double.self)
        guard let float = Float(exactly: double) ?? (abs(double) <= Double(Float.greatestFiniteMagnitude) ? Float(double) : nil) else {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "Parsed JSON number <\(double)> does not fit in Float."))
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

    /// An integer parsed exactly from the number's text; fractions, exponents and out-of-range
    /// values are refused at this field.
    private func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        guard case .number(let text) = value else { throw mismatch(type) }
        guard let integer = T(text, radix: 10) else {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "Parsed JSON number <\(text)> does not fit in \(T.self)."))
        }
        return integer
    }

    private func mismatch(_ type: Any.Type) -> DecodingError {
        DecodingError.typeMismatch(type, .init(codingPath: codingPath, debugDescription: "Expected to decode \(type) but found \(value.typeDescription) instead."))
    }
}
