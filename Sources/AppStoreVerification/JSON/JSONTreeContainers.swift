import Foundation

/// ``JSONTreeEncoder``'s keyed container: members of an ``EncodedJSONObject``.
struct JSONTreeKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let object: EncodedJSONObject
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws { object.set(.null, for: key.stringValue) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { object.set(.literal(value ? "true" : "false"), for: key.stringValue) }
    mutating func encode(_ value: String, forKey key: Key) throws { object.set(.string(value), for: key.stringValue) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        object.set(try JSONTreeEncoder.node(for: value, at: codingPath + [key]), for: key.stringValue)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        object.set(try JSONTreeEncoder.node(for: Double(value), at: codingPath + [key]), for: key.stringValue)
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { object.set(.literal(String(value)), for: key.stringValue) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { object.set(.literal(String(value)), for: key.stringValue) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { object.set(.literal(String(value)), for: key.stringValue) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { object.set(.literal(String(value)), for: key.stringValue) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { object.set(.literal(String(value)), for: key.stringValue) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { object.set(.literal(String(value)), for: key.stringValue) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { object.set(.literal(String(value)), for: key.stringValue) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { object.set(.literal(String(value)), for: key.stringValue) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { object.set(.literal(String(value)), for: key.stringValue) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { object.set(.literal(String(value)), for: key.stringValue) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        object.set(try JSONTreeEncoder.node(for: value, at: codingPath + [key]), for: key.stringValue)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let nested = EncodedJSONObject()
        object.set(.object(nested), for: key.stringValue)
        return KeyedEncodingContainer(JSONTreeKeyedContainer<NestedKey>(object: nested, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = EncodedJSONArray()
        object.set(.array(nested), for: key.stringValue)
        return JSONTreeUnkeyedContainer(array: nested, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        JSONTreeMemberEncoder(object: object, key: "super", codingPath: codingPath)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        JSONTreeMemberEncoder(object: object, key: key.stringValue, codingPath: codingPath + [key])
    }
}

/// ``JSONTreeEncoder``'s unkeyed container: elements of an ``EncodedJSONArray``.
struct JSONTreeUnkeyedContainer: UnkeyedEncodingContainer {
    let array: EncodedJSONArray
    let codingPath: [any CodingKey]
    var count: Int { array.elements.count }

    private var nextPath: [any CodingKey] { codingPath + [JSONTreeIndexKey(index: array.elements.count)] }

    mutating func encodeNil() throws { array.elements.append(.null) }
    mutating func encode(_ value: Bool) throws { array.elements.append(.literal(value ? "true" : "false")) }
    mutating func encode(_ value: String) throws { array.elements.append(.string(value)) }
    mutating func encode(_ value: Double) throws { array.elements.append(try JSONTreeEncoder.node(for: value, at: nextPath)) }
    mutating func encode(_ value: Float) throws { array.elements.append(try JSONTreeEncoder.node(for: Double(value), at: nextPath)) }
    mutating func encode(_ value: Int) throws { array.elements.append(.literal(String(value))) }
    mutating func encode(_ value: Int64) throws { array.elements.append(.literal(String(value))) }
    mutating func encode<T: Encodable>(_ value: T) throws { array.elements.append(try JSONTreeEncoder.node(for: value, at: nextPath)) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let nested = EncodedJSONObject()
        let path = nextPath
        array.elements.append(.object(nested))
        return KeyedEncodingContainer(JSONTreeKeyedContainer<NestedKey>(object: nested, codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = EncodedJSONArray()
        let path = nextPath
        array.elements.append(.array(nested))
        return JSONTreeUnkeyedContainer(array: nested, codingPath: path)
    }

    mutating func superEncoder() -> any Encoder {
        JSONTreeElementEncoder(array: array, index: array.elements.count, codingPath: nextPath)
    }
}

/// ``JSONTreeEncoder``'s single-value container: sets the encoder's node.
struct JSONTreeSingleValueContainer: SingleValueEncodingContainer {
    let encoder: JSONTreeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() throws { encoder.node = .null }
    mutating func encode(_ value: Bool) throws { encoder.node = .literal(value ? "true" : "false") }
    mutating func encode(_ value: String) throws { encoder.node = .string(value) }
    mutating func encode(_ value: Double) throws { encoder.node = try JSONTreeEncoder.node(for: value, at: codingPath) }
    mutating func encode(_ value: Float) throws { encoder.node = try JSONTreeEncoder.node(for: Double(value), at: codingPath) }
    mutating func encode(_ value: Int) throws { encoder.node = .literal(String(value)) }
    mutating func encode(_ value: Int8) throws { encoder.node = .literal(String(value)) }
    mutating func encode(_ value: Int16) throws { encoder.node = .literal(String(value)) }
    mutating func encode(_ value: Int32) throws { encoder.node = .literal(String(value)) }
    mutating func encode(_ value: Int64) throws { encoder.node = .literal(String(value)) }
    mutating func encode(_ value: UInt) throws { encoder.node = .literal(String(value)) }
    mutating func encode(_ value: UInt8) throws { encoder.node = .literal(String(value)) }
    mutating func encode(_ value: UInt16) throws { encoder.node = .literal(String(value)) }
    mutating func encode(_ value: UInt32) throws { encoder.node = .literal(String(value)) }
    mutating func encode(_ value: UInt64) throws { encoder.node = .literal(String(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws { encoder.node = try JSONTreeEncoder.node(for: value, at: codingPath) }
}

/// The key of an array element in a coding path.
struct JSONTreeIndexKey: CodingKey {
    let index: Int
    var stringValue: String { "Index \(index)" }
    var intValue: Int? { index }
    init(index: Int) { self.index = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.index = intValue }
}

/// A `superEncoder(forKey:)`: an encoder whose value becomes one member of `object` as it is
/// encoded (Foundation's writes it when the encoder is released; the value is the same).
final class JSONTreeMemberEncoder: Encoder {
    private let inner: JSONTreeEncoder
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(object: EncodedJSONObject, key: String, codingPath: [any CodingKey]) {
        self.inner = JSONTreeEncoder(codingPath: codingPath)
        self.codingPath = codingPath
        // A placeholder object that the containers below fill in place.
        let placeholder = EncodedJSONObject()
        inner.node = .object(placeholder)
        object.set(.object(placeholder), for: key)
        self.object = object
        self.key = key
    }

    private let object: EncodedJSONObject
    private let key: String

    func container<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        inner.container(keyedBy: type)
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let array = EncodedJSONArray()
        inner.node = .array(array)
        object.set(.array(array), for: key)
        return JSONTreeUnkeyedContainer(array: array, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        JSONTreeMemberValueContainer(inner: inner, object: object, key: key)
    }
}

/// The single-value container of a ``JSONTreeMemberEncoder``: its value replaces the member.
struct JSONTreeMemberValueContainer: SingleValueEncodingContainer {
    let inner: JSONTreeEncoder
    let object: EncodedJSONObject
    let key: String
    var codingPath: [any CodingKey] { inner.codingPath }

    private func set(_ node: EncodedJSONNode) { inner.node = node; object.set(node, for: key) }

    mutating func encodeNil() throws { set(.null) }
    mutating func encode(_ value: Bool) throws { set(.literal(value ? "true" : "false")) }
    mutating func encode(_ value: String) throws { set(.string(value)) }
    mutating func encode(_ value: Double) throws { set(try JSONTreeEncoder.node(for: value, at: codingPath)) }
    mutating func encode(_ value: Float) throws { set(try JSONTreeEncoder.node(for: Double(value), at: codingPath)) }
    mutating func encode(_ value: Int) throws { set(.literal(String(value))) }
    mutating func encode(_ value: Int8) throws { set(.literal(String(value))) }
    mutating func encode(_ value: Int16) throws { set(.literal(String(value))) }
    mutating func encode(_ value: Int32) throws { set(.literal(String(value))) }
    mutating func encode(_ value: Int64) throws { set(.literal(String(value))) }
    mutating func encode(_ value: UInt) throws { set(.literal(String(value))) }
    mutating func encode(_ value: UInt8) throws { set(.literal(String(value))) }
    mutating func encode(_ value: UInt16) throws { set(.literal(String(value))) }
    mutating func encode(_ value: UInt32) throws { set(.literal(String(value))) }
    mutating func encode(_ value: UInt64) throws { set(.literal(String(value))) }
    mutating func encode<T: Encodable>(_ value: T) throws { set(try JSONTreeEncoder.node(for: value, at: codingPath)) }
}

/// An unkeyed container's `superEncoder()`: its value becomes the element at `index`.
final class JSONTreeElementEncoder: Encoder {
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    private let array: EncodedJSONArray
    private let index: Int

    init(array: EncodedJSONArray, index: Int, codingPath: [any CodingKey]) {
        self.array = array
        self.index = index
        self.codingPath = codingPath
        array.elements.append(.object(EncodedJSONObject()))
    }

    func container<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        if case .object(let object) = array.elements[index] {
            return KeyedEncodingContainer(JSONTreeKeyedContainer<NestedKey>(object: object, codingPath: codingPath))
        }
        let object = EncodedJSONObject()
        array.elements[index] = .object(object)
        return KeyedEncodingContainer(JSONTreeKeyedContainer<NestedKey>(object: object, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = EncodedJSONArray()
        array.elements[index] = .array(nested)
        return JSONTreeUnkeyedContainer(array: nested, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        let inner = JSONTreeEncoder(codingPath: codingPath)
        return JSONTreeElementValueContainer(inner: inner, array: array, index: index)
    }
}

/// The single-value container of a ``JSONTreeElementEncoder``.
struct JSONTreeElementValueContainer: SingleValueEncodingContainer {
    let inner: JSONTreeEncoder
    let array: EncodedJSONArray
    let index: Int
    var codingPath: [any CodingKey] { inner.codingPath }

    private func set(_ node: EncodedJSONNode) { array.elements[index] = node }

    mutating func encodeNil() throws { set(.null) }
    mutating func encode(_ value: Bool) throws { set(.literal(value ? "true" : "false")) }
    mutating func encode(_ value: String) throws { set(.string(value)) }
    mutating func encode(_ value: Double) throws { set(try JSONTreeEncoder.node(for: value, at: codingPath)) }
    mutating func encode(_ value: Float) throws { set(try JSONTreeEncoder.node(for: Double(value), at: codingPath)) }
    mutating func encode(_ value: Int) throws { set(.literal(String(value))) }
    mutating func encode(_ value: Int64) throws { set(.literal(String(value))) }
    mutating func encode<T: Encodable>(_ value: T) throws { set(try JSONTreeEncoder.node(for: value, at: codingPath)) }
}
