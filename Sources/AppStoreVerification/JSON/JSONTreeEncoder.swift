import Foundation

/// An `Encoder` that writes what `AppStoreJSON.makeEncoder()` writes (keys sorted, `/` unescaped,
/// dates as milliseconds since 1970, whole when they are whole; `Data` as base64, `URL` as its
/// absolute string, non-finite numbers refused), several times faster: it builds a small tree of
/// JSON text instead of Foundation's boxed values, recognises the common value types by their
/// metatype instead of casting, and builds a coding path only when an error needs one.
/// ``AppStoreJSON/encode(_:)`` uses it.
final class JSONTreeEncoder: Encoder {
    /// The encoder of the enclosing value, and the key or index this one's value is at.
    private let parent: JSONTreeEncoder?
    private let key: (any CodingKey)?
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    /// What was encoded; `nil` when nothing was (JSONEncoder writes `{}` then).
    var node: EncodedJSONNode?

    init(parent: JSONTreeEncoder?, key: (any CodingKey)?) {
        self.parent = parent
        self.key = key
    }

    var codingPath: [any CodingKey] {
        var path = parent?.codingPath ?? []
        if let key { path.append(key) }
        return path
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let object: EncodedJSONObject
        if case .object(let existing)? = node {
            object = existing
        } else {
            object = EncodedJSONObject()
            node = .object(object)
        }
        return KeyedEncodingContainer(JSONTreeKeyedContainer<Key>(object: object, encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let array: EncodedJSONArray
        if case .array(let existing)? = node {
            array = existing
        } else {
            array = EncodedJSONArray()
            node = .array(array)
        }
        return JSONTreeUnkeyedContainer(array: array, encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        JSONTreeSingleValueContainer(encoder: self)
    }

    // MARK: - Values

    /// The JSON of `value`, at `key` of the value `parent` encodes: the App Store conventions for
    /// dates, Foundation's for `Data` and `URL`, an open enumeration as its raw value.
    static func node<Value: Encodable>(for value: Value, parent: JSONTreeEncoder?, key: (any CodingKey)?) throws -> EncodedJSONNode {
        if Value.self == String.self { return .string(unsafeBitCast(value, to: String.self)) }
        if Value.self == Int64.self { return .literal(String(unsafeBitCast(value, to: Int64.self))) }
        if Value.self == Int.self { return .literal(String(unsafeBitCast(value, to: Int.self))) }
        if Value.self == Bool.self { return .literal(unsafeBitCast(value, to: Bool.self) ? "true" : "false") }
        if Value.self == Double.self { return try node(for: unsafeBitCast(value, to: Double.self), parent: parent, key: key) }
        if Value.self == Date.self { return try node(for: unsafeBitCast(value, to: Date.self), parent: parent, key: key) }
        if Value.self == UUID.self { return .string(unsafeBitCast(value, to: UUID.self).uuidString) }
        if Value.self == Data.self, let data = value as? Data { return .string(data.base64EncodedString()) }
        if Value.self == URL.self, let url = value as? URL { return .string(url.absoluteString) }
        if let open = value as? any OpenEnumeration { return try rawValueNode(of: open, parent: parent, key: key) }
        let encoder = JSONTreeEncoder(parent: parent, key: key)
        try value.encode(to: encoder)
        return encoder.node ?? .object(EncodedJSONObject())
    }

    /// An open enumeration's raw value, as its `encode(to:)` writes it.
    private static func rawValueNode<Enumeration: OpenEnumeration>(of value: Enumeration, parent: JSONTreeEncoder?, key: (any CodingKey)?) throws -> EncodedJSONNode {
        try node(for: value.rawValue, parent: parent, key: key)
    }

    /// A date as `AppStoreJSON.makeEncoder()` writes it.
    static func node(for date: Date, parent: JSONTreeEncoder?, key: (any CodingKey)?) throws -> EncodedJSONNode {
        let milliseconds = date.timeIntervalSince1970 * 1000
        let rounded = milliseconds.rounded()
        if abs(milliseconds - rounded) < 0.0005, abs(rounded) < 9.0e15 {
            return .literal(String(Int64(rounded)))
        }
        return try node(for: milliseconds, parent: parent, key: key)
    }

    /// A finite number as `JSONEncoder` writes it (`5` for 5.0); a non-finite one is refused.
    static func node(for number: Double, parent: JSONTreeEncoder?, key: (any CodingKey)?) throws -> EncodedJSONNode {
        guard number.isFinite else {
            var path = parent?.codingPath ?? []
            if let key { path.append(key) }
            throw EncodingError.invalidValue(number, EncodingError.Context(
                codingPath: path, debugDescription: "Unable to encode Double.\(number) directly in JSON."))
        }
        var text = number.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return .literal(text)
    }
}
