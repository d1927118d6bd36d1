import Foundation
import AppStoreVerification

/// A value as the text format shows it: a scalar already written out, or members, or elements.
final class TextNode {
    enum Kind { case scalar, object, array }

    private(set) var kind: Kind
    private(set) var scalar = ""
    private(set) var members: [(key: String, value: TextNode)] = []
    private(set) var elements: [TextNode] = []

    init(kind: Kind = .object) { self.kind = kind }

    /// A scalar; its text comes from the input, so control and bidi characters are escaped.
    init(scalar: String) {
        kind = .scalar
        self.scalar = LogSafeText.escaping(scalar)
    }

    func set(scalar text: String) {
        kind = .scalar
        scalar = LogSafeText.escaping(text)
    }

    func set(_ node: TextNode) {
        kind = node.kind
        scalar = node.scalar
        members = node.members
        elements = node.elements
    }

    /// Adds a member (becoming an object) and returns it.
    @discardableResult
    func add(_ key: String, _ node: TextNode) -> TextNode {
        kind = .object
        members.append((LogSafeText.escaping(key), node))
        return node
    }

    /// Adds an element (becoming an array) and returns it.
    @discardableResult
    func append(_ node: TextNode) -> TextNode {
        kind = .array
        elements.append(node)
        return node
    }
}

/// An `Encoder` that turns a typed model into a ``TextNode`` tree for the text format.
///
/// Rendering goes through the models' own `Encodable` conformance, so every model (and every field
/// added to one) shows up the same way, in declaration order, with no JSON re-parsing: strings are
/// quoted, numbers and booleans bare, open enumerations as their raw value, and dates as ISO 8601
/// (UTC, milliseconds) followed by the milliseconds since 1970 the App Store signed.
final class ModelTextEncoder: Encoder {
    var codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    fileprivate let node: TextNode

    fileprivate init(node: TextNode, codingPath: [any CodingKey]) {
        self.node = node
        self.codingPath = codingPath
    }

    /// The tree for one value; `nil` when encoding fails (the caller shows the raw JSON instead).
    static func node(for value: any Encodable) -> TextNode? {
        let node = TextNode()
        do {
            try Scalar.encode(value, into: node, codingPath: [])
        } catch {
            return nil
        }
        return node
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(KeyedTextContainer<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        UnkeyedTextContainer(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueTextContainer(node: node, codingPath: codingPath)
    }
}

/// Scalars as the text format writes them.
fileprivate enum Scalar {
    static func string(_ value: String) -> TextNode { TextNode(scalar: JSONText.quoted(value)) }
    static func describe<T: CustomStringConvertible>(_ value: T) -> TextNode { TextNode(scalar: value.description) }

    /// A nested value: dates get their own format, everything else encodes itself.
    static func nested(_ value: any Encodable, codingPath: [any CodingKey]) throws -> TextNode {
        let node = TextNode()
        try encode(value, into: node, codingPath: codingPath)
        return node
    }

    static func encode(_ value: any Encodable, into node: TextNode, codingPath: [any CodingKey]) throws {
        if let date = value as? Date {
            node.set(scalar: TimestampText.text(date))
        } else {
            try value.encode(to: ModelTextEncoder(node: node, codingPath: codingPath))
        }
    }
}

fileprivate struct KeyedTextContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: TextNode
    var codingPath: [any CodingKey]

    private func add(_ key: Key, _ value: TextNode) { node.add(key.stringValue, value) }

    mutating func encodeNil(forKey key: Key) throws { add(key, TextNode(scalar: "null")) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { add(key, Scalar.describe(value)) }
    mutating func encode(_ value: String, forKey key: Key) throws { add(key, Scalar.string(value)) }
    mutating func encode(_ value: Double, forKey key: Key) throws { add(key, Scalar.describe(value)) }
    mutating func encode(_ value: Float, forKey key: Key) throws { add(key, Scalar.describe(value)) }
    mutating func encode(_ value: Int, forKey key: Key) throws { add(key, Scalar.describe(value)) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { add(key, Scalar.describe(value)) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { add(key, Scalar.describe(value)) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { add(key, Scalar.describe(value)) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { add(key, Scalar.describe(value)) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { add(key, Scalar.describe(value)) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { add(key, Scalar.describe(value)) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { add(key, Scalar.describe(value)) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { add(key, Scalar.describe(value)) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { add(key, Scalar.describe(value)) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        add(key, try Scalar.nested(value, codingPath: codingPath + [key]))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(KeyedTextContainer<NestedKey>(node: node.add(key.stringValue, TextNode(kind: .object)), codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        UnkeyedTextContainer(node: node.add(key.stringValue, TextNode(kind: .array)), codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        ModelTextEncoder(node: node.add("super", TextNode()), codingPath: codingPath)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        ModelTextEncoder(node: node.add(key.stringValue, TextNode()), codingPath: codingPath + [key])
    }
}

fileprivate struct UnkeyedTextContainer: UnkeyedEncodingContainer {
    let node: TextNode
    var codingPath: [any CodingKey]
    var count: Int { node.elements.count }

    private func add(_ value: TextNode) { node.append(value) }

    mutating func encodeNil() throws { add(TextNode(scalar: "null")) }
    mutating func encode(_ value: Bool) throws { add(Scalar.describe(value)) }
    mutating func encode(_ value: String) throws { add(Scalar.string(value)) }
    mutating func encode(_ value: Double) throws { add(Scalar.describe(value)) }
    mutating func encode(_ value: Float) throws { add(Scalar.describe(value)) }
    mutating func encode(_ value: Int) throws { add(Scalar.describe(value)) }
    mutating func encode(_ value: Int8) throws { add(Scalar.describe(value)) }
    mutating func encode(_ value: Int16) throws { add(Scalar.describe(value)) }
    mutating func encode(_ value: Int32) throws { add(Scalar.describe(value)) }
    mutating func encode(_ value: Int64) throws { add(Scalar.describe(value)) }
    mutating func encode(_ value: UInt) throws { add(Scalar.describe(value)) }
    mutating func encode(_ value: UInt8) throws { add(Scalar.describe(value)) }
    mutating func encode(_ value: UInt16) throws { add(Scalar.describe(value)) }
    mutating func encode(_ value: UInt32) throws { add(Scalar.describe(value)) }
    mutating func encode(_ value: UInt64) throws { add(Scalar.describe(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws { add(try Scalar.nested(value, codingPath: codingPath)) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(KeyedTextContainer<NestedKey>(node: node.append(TextNode(kind: .object)), codingPath: codingPath))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        UnkeyedTextContainer(node: node.append(TextNode(kind: .array)), codingPath: codingPath)
    }

    mutating func superEncoder() -> any Encoder {
        ModelTextEncoder(node: node.append(TextNode()), codingPath: codingPath)
    }
}

fileprivate struct SingleValueTextContainer: SingleValueEncodingContainer {
    let node: TextNode
    var codingPath: [any CodingKey]

    mutating func encodeNil() throws { node.set(TextNode(scalar: "null")) }
    mutating func encode(_ value: Bool) throws { node.set(Scalar.describe(value)) }
    mutating func encode(_ value: String) throws { node.set(Scalar.string(value)) }
    mutating func encode(_ value: Double) throws { node.set(Scalar.describe(value)) }
    mutating func encode(_ value: Float) throws { node.set(Scalar.describe(value)) }
    mutating func encode(_ value: Int) throws { node.set(Scalar.describe(value)) }
    mutating func encode(_ value: Int8) throws { node.set(Scalar.describe(value)) }
    mutating func encode(_ value: Int16) throws { node.set(Scalar.describe(value)) }
    mutating func encode(_ value: Int32) throws { node.set(Scalar.describe(value)) }
    mutating func encode(_ value: Int64) throws { node.set(Scalar.describe(value)) }
    mutating func encode(_ value: UInt) throws { node.set(Scalar.describe(value)) }
    mutating func encode(_ value: UInt8) throws { node.set(Scalar.describe(value)) }
    mutating func encode(_ value: UInt16) throws { node.set(Scalar.describe(value)) }
    mutating func encode(_ value: UInt32) throws { node.set(Scalar.describe(value)) }
    mutating func encode(_ value: UInt64) throws { node.set(Scalar.describe(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws { try Scalar.encode(value, into: node, codingPath: codingPath) }
}
