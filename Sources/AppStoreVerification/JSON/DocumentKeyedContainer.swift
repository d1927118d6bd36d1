/// The keyed container of ``ValueDecoder``: the members of one JSON object, found by name in place.
struct DocumentKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let document: JSONDocument
    let object: Int
    let codingPath: [any CodingKey]

    var allKeys: [Key] { document.memberNames(in: object).compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { member(key) != nil }

    /// The tape index of the value of the member named `key`, or `nil`.
    private func member(_ key: Key) -> Int? { document.member(key.stringValue, in: object) }

    private func decoder(for key: Key) throws -> ValueDecoder {
        guard let index = member(key) else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "No value associated with key \(key.stringValue) (\"\(key.stringValue)\")."))
        }
        return ValueDecoder(document: document, index: index, parentPath: codingPath, key: key)
    }

    /// The decoder for `key` when the member is present and not null.
    private func presentDecoder(for key: Key) -> ValueDecoder? {
        guard let index = member(key), document.nodes[index].kind != .null else { return nil }
        return ValueDecoder(document: document, index: index, parentPath: codingPath, key: key)
    }

    func decodeNil(forKey key: Key) throws -> Bool { try decoder(for: key).decodeNil() }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        // A null fails in the type's own decoding, as with JSONDecoder (valueNotFound for the scalar
        // or container it asks for; an `Optional` accepts it).
        try decoder(for: key).decodeValue(type)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let decoder = presentDecoder(for: key) else { return nil }
        // Payload enumerations read their raw value directly, without a container existential.
        if let enumeration = type as? any OpenEnumeration.Type {
            return try Self.decodeEnumeration(enumeration, decoder) as? T
        }
        return try decoder.decodeValue(type)
    }

    private static func decodeEnumeration<E: OpenEnumeration>(_ type: E.Type, _ decoder: ValueDecoder) throws -> E {
        E(rawValue: try decoder.decodeValue(E.RawValue.self))
    }

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try presentDecoder(for: key)?.decode(type) }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try presentDecoder(for: key)?.decode(type) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try presentDecoder(for: key)?.decode(type) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try presentDecoder(for: key)?.integer(type) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try presentDecoder(for: key)?.integer(type) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try presentDecoder(for: key)?.integer(type) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder(for: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder(for: key).unkeyedContainer()
    }

    /// The decoder for the member `"super"`, reading `null` when there is none (as `JSONDecoder`).
    func superDecoder() throws -> any Decoder {
        let key = SuperKey()
        let index = document.member(key.stringValue, in: object) ?? ValueDecoder.absent
        return ValueDecoder(document: document, index: index, parentPath: codingPath, key: key)
    }

    /// The decoder for the member `key`, reading `null` when there is none (as `JSONDecoder`).
    func superDecoder(forKey key: Key) throws -> any Decoder {
        let index = document.member(key.stringValue, in: object) ?? ValueDecoder.absent
        return ValueDecoder(document: document, index: index, parentPath: codingPath, key: key)
    }

    /// The key of ``superDecoder()``.
    private struct SuperKey: CodingKey {
        var stringValue: String { "super" }
        var intValue: Int? { nil }
        init() {}
        init?(stringValue: String) { nil }
        init?(intValue: Int) { nil }
    }
}
