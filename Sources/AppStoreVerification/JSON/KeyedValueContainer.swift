/// The keyed container of ``ValueDecoder``: one JSON object's members.
struct KeyedValueContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [String: JSONValue]
    let codingPath: [any CodingKey]

    var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    private func decoder(for key: Key) throws -> ValueDecoder {
        guard let value = members[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "No value associated with key \(key.stringValue)."))
        }
        return ValueDecoder(value: value, codingPath: codingPath + [key])
    }

    /// The decoder for `key` when the key is present and not null.
    private func presentDecoder(for key: Key) -> ValueDecoder? {
        guard let value = members[key.stringValue] else { return nil }
        if case .null = value { return nil }
        return ValueDecoder(value: value, codingPath: codingPath + [key])
    }

    func decodeNil(forKey key: Key) throws -> Bool { try decoder(for: key).decodeNil() }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let decoder = try decoder(for: key)
        if case .null = decoder.value {
            throw DecodingError.valueNotFound(type, .init(codingPath: decoder.codingPath, debugDescription: "Expected \(type) value but found null instead."))
        }
        return try decoder.decodeValue(type)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try presentDecoder(for: key)?.decodeValue(type)
    }

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try presentDecoder(for: key)?.decode(type) }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try presentDecoder(for: key)?.decode(type) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try presentDecoder(for: key)?.decode(type) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try presentDecoder(for: key)?.decode(type) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try presentDecoder(for: key)?.decode(type) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try presentDecoder(for: key)?.decode(type) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder(for: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder(for: key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        ValueDecoder(value: .object(members), codingPath: codingPath)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        ValueDecoder(value: members[key.stringValue] ?? .null, codingPath: codingPath + [key])
    }
}
