import Foundation

/// An `Encoder` that writes what `AppStoreJSON.makeEncoder()` writes (keys sorted, `/` unescaped,
/// dates as milliseconds since 1970, whole when they are whole; `Data` as base64, `URL` as its
/// absolute string, non-finite numbers refused), several times faster: it builds a small tree of
/// JSON text instead of Foundation's boxed values. ``AppStoreJSON/encode(_:)`` uses it.
final class JSONTreeEncoder: Encoder {
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    /// What was encoded; `nil` when nothing was (JSONEncoder writes `{}` then).
    var node: EncodedJSONNode?

    init(codingPath: [any CodingKey]) {
        self.codingPath = codingPath
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let object: EncodedJSONObject
        if case .object(let existing)? = node {
            object = existing
        } else {
            object = EncodedJSONObject()
            node = .object(object)
        }
        return KeyedEncodingContainer(JSONTreeKeyedContainer<Key>(object: object, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let array: EncodedJSONArray
        if case .array(let existing)? = node {
            array = existing
        } else {
            array = EncodedJSONArray()
            node = .array(array)
        }
        return JSONTreeUnkeyedContainer(array: array, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        JSONTreeSingleValueContainer(encoder: self)
    }

    // MARK: - Values

    /// The JSON of `value`, with the App Store conventions for dates and Foundation's for `Data`
    /// and `URL`.
    static func node<Value: Encodable>(for value: Value, at codingPath: [any CodingKey]) throws -> EncodedJSONNode {
        switch value {
        case let text as String: return .string(text)
        case let number as Int64: return .literal(String(number))
        case let number as Int: return .literal(String(number))
        case let flag as Bool: return .literal(flag ? "true" : "false")
        case let number as Double: return try node(for: number, at: codingPath)
        case let date as Date: return try node(for: date, at: codingPath)
        case let uuid as UUID: return .string(uuid.uuidString)
        case let data as Data: return .string(data.base64EncodedString())
        case let url as URL: return .string(url.absoluteString)
        default:
            let encoder = JSONTreeEncoder(codingPath: codingPath)
            try value.encode(to: encoder)
            return encoder.node ?? .object(EncodedJSONObject())
        }
    }

    /// A date as `AppStoreJSON.makeEncoder()` writes it.
    static func node(for date: Date, at codingPath: [any CodingKey]) throws -> EncodedJSONNode {
        let milliseconds = date.timeIntervalSince1970 * 1000
        let rounded = milliseconds.rounded()
        if abs(milliseconds - rounded) < 0.0005, abs(rounded) < 9.0e15 {
            return .literal(String(Int64(rounded)))
        }
        return try node(for: milliseconds, at: codingPath)
    }

    /// A finite number as `JSONEncoder` writes it (`5` for 5.0); a non-finite one is refused.
    static func node(for number: Double, at codingPath: [any CodingKey]) throws -> EncodedJSONNode {
        guard number.isFinite else {
            throw EncodingError.invalidValue(number, EncodingError.Context(
                codingPath: codingPath, debugDescription: "Unable to encode Double.\(number) directly in JSON."))
        }
        var text = number.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return .literal(text)
    }

    static func node<Integer: FixedWidthInteger>(forInteger number: Integer) -> EncodedJSONNode {
        .literal(String(number))
    }
}
