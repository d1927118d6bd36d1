import Foundation

/// ``JSONTreeEncoder``'s keyed container: members of an ``EncodedJSONObject``.
struct JSONTreeKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let object: EncodedJSONObject
    /// The encoder whose value this object is (its coding path, for errors and nested values).
    let encoder: JSONTreeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    private func set(_ node: EncodedJSONNode, _ key: Key) { object.set(node, for: key.stringValue) }
    private func literal(_ text: String, _ key: Key) { object.set(.literal(text), for: key.stringValue) }

    mutating func encodeNil(forKey key: Key) throws { set(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { literal(value ? "true" : "false", key) }
    mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { set(try JSONTreeEncoder.node(for: value, parent: encoder, key: key), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { set(try JSONTreeEncoder.node(for: Double(value), parent: encoder, key: key), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { literal(String(value), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { literal(String(value), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { literal(String(value), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { literal(String(value), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { literal(String(value), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { literal(String(value), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { literal(String(value), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { literal(String(value), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { literal(String(value), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { literal(String(value), key) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        set(try JSONTreeEncoder.node(for: value, parent: encoder, key: key), key)
    }

    // The synthesized `encode(to:)` of an optional member calls these; a nil one is left out.
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { if let value { set(.string(value), key) } }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { if let value { try encode(value, forKey: key) } }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { if let value { literal(String(value), key) } }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { if let value { literal(String(value), key) } }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { if let value { literal(String(value), key) } }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value { set(try JSONTreeEncoder.node(for: value, parent: encoder, key: key), key) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let nested = JSONTreeEncoder(parent: encoder, key: key)
        let container = nested.container(keyedBy: keyType)
        if let node = nested.node { set(node, key) }
        return container
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = JSONTreeEncoder(parent: encoder, key: key)
        let container = nested.unkeyedContainer()
        if let node = nested.node { set(node, key) }
        return container
    }

    mutating func superEncoder() -> any Encoder {
        JSONTreeReferencingEncoder(parent: encoder, key: JSONTreeSuperKey(), store: { [object] node in object.set(node, for: "super") })
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        JSONTreeReferencingEncoder(parent: encoder, key: key, store: { [object] node in object.set(node, for: key.stringValue) })
    }
}

/// ``JSONTreeEncoder``'s unkeyed container: elements of an ``EncodedJSONArray``.
struct JSONTreeUnkeyedContainer: UnkeyedEncodingContainer {
    let array: EncodedJSONArray
    let encoder: JSONTreeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int { array.elements.count }

    private var nextKey: JSONTreeIndexKey { JSONTreeIndexKey(index: array.elements.count) }

    mutating func encodeNil() throws { array.elements.append(.null) }
    mutating func encode(_ value: Bool) throws { array.elements.append(.literal(value ? "true" : "false")) }
    mutating func encode(_ value: String) throws { array.elements.append(.string(value)) }
    mutating func encode(_ value: Double) throws { array.elements.append(try JSONTreeEncoder.node(for: value, parent: encoder, key: nextKey)) }
    mutating func encode(_ value: Float) throws { array.elements.append(try JSONTreeEncoder.node(for: Double(value), parent: encoder, key: nextKey)) }
    mutating func encode(_ value: Int) throws { array.elements.append(.literal(String(value))) }
    mutating func encode(_ value: Int64) throws { array.elements.append(.literal(String(value))) }
    mutating func encode<T: Encodable>(_ value: T) throws { array.elements.append(try JSONTreeEncoder.node(for: value, parent: encoder, key: nextKey)) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let nested = JSONTreeEncoder(parent: encoder, key: nextKey)
        let container = nested.container(keyedBy: keyType)
        array.elements.append(nested.node ?? .null)
        return container
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = JSONTreeEncoder(parent: encoder, key: nextKey)
        let container = nested.unkeyedContainer()
        array.elements.append(nested.node ?? .null)
        return container
    }

    mutating func superEncoder() -> any Encoder {
        let index = array.elements.count
        array.elements.append(.object(EncodedJSONObject()))
        return JSONTreeReferencingEncoder(parent: encoder, key: JSONTreeIndexKey(index: index), store: { [array] node in array.elements[index] = node })
    }
}

/// ``JSONTreeEncoder``'s single-value container: sets the encoder's node.
struct JSONTreeSingleValueContainer: SingleValueEncodingContainer {
    let encoder: JSONTreeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() throws { encoder.node = .null }
    mutating func encode(_ value: Bool) throws { encoder.node = .literal(value ? "true" : "false") }
    mutating func encode(_ value: String) throws { encoder.node = .string(value) }
    mutating func encode(_ value: Double) throws { encoder.node = try JSONTreeEncoder.node(for: value, parent: encoder, key: nil) }
    mutating func encode(_ value: Float) throws { encoder.node = try JSONTreeEncoder.node(for: Double(value), parent: encoder, key: nil) }
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
    mutating func encode<T: Encodable>(_ value: T) throws { encoder.node = try JSONTreeEncoder.node(for: value, parent: encoder, key: nil) }
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

/// The key `super`, of `superEncoder()`.
struct JSONTreeSuperKey: CodingKey {
    var stringValue: String { "super" }
    var intValue: Int? { nil }
    init() {}
    init?(stringValue: String) { guard stringValue == "super" else { return nil } }
    init?(intValue: Int) { nil }
}

/// A `superEncoder()`: its value is stored (in the member or element it stands for) each time a
/// container of it is asked for or written to. Synthesized conformances never use one.
final class JSONTreeReferencingEncoder: Encoder {
    private let inner: JSONTreeEncoder
    private let store: (EncodedJSONNode) -> Void
    var codingPath: [any CodingKey] { inner.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(parent: JSONTreeEncoder, key: any CodingKey, store: @escaping (EncodedJSONNode) -> Void) {
        self.inner = JSONTreeEncoder(parent: parent, key: key)
        self.store = store
    }

    func container<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let container = inner.container(keyedBy: type)
        if let node = inner.node { store(node) }
        return container
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let container = inner.unkeyedContainer()
        if let node = inner.node { store(node) }
        return container
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        JSONTreeReferencingValueContainer(inner: inner, store: store)
    }
}

/// The single-value container of a ``JSONTreeReferencingEncoder``.
struct JSONTreeReferencingValueContainer: SingleValueEncodingContainer {
    let inner: JSONTreeEncoder
    let store: (EncodedJSONNode) -> Void
    var codingPath: [any CodingKey] { inner.codingPath }

    private func set(_ encode: (inout JSONTreeSingleValueContainer) throws -> Void) rethrows {
        var container = JSONTreeSingleValueContainer(encoder: inner)
        try encode(&container)
        if let node = inner.node { store(node) }
    }

    mutating func encodeNil() throws { try set { try $0.encodeNil() } }
    mutating func encode(_ value: Bool) throws { try set { try $0.encode(value) } }
    mutating func encode(_ value: String) throws { try set { try $0.encode(value) } }
    mutating func encode(_ value: Double) throws { try set { try $0.encode(value) } }
    mutating func encode(_ value: Float) throws { try set { try $0.encode(value) } }
    mutating func encode(_ value: Int) throws { try set { try $0.encode(value) } }
    mutating func encode(_ value: Int64) throws { try set { try $0.encode(value) } }
    mutating func encode<T: Encodable>(_ value: T) throws { try set { try $0.encode(value) } }
}
