/// The unkeyed container of ``ValueDecoder``: one JSON array's elements, in order.
struct DocumentUnkeyedContainer: UnkeyedDecodingContainer {
    let document: JSONDocument
    let elements: [Int]
    let codingPath: [any CodingKey]
    private(set) var currentIndex = 0

    init(document: JSONDocument, elements: [Int], codingPath: [any CodingKey]) {
        self.document = document
        self.elements = elements
        self.codingPath = codingPath
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    /// A key naming an array index, as Foundation writes it in coding paths ("Index 3").
    private struct IndexKey: CodingKey {
        var intValue: Int?
        var stringValue: String
        init(index: Int) {
            intValue = index
            stringValue = "Index \(index)"
        }
        init?(stringValue: String) { nil }
        init?(intValue: Int) { self.init(index: intValue) }
    }

    private mutating func next<T>(_ type: T.Type) throws -> ValueDecoder {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, .init(codingPath: codingPath + [IndexKey(index: currentIndex)], debugDescription: "Unkeyed container is at end."))
        }
        let decoder = ValueDecoder(document: document, index: elements[currentIndex], parentPath: codingPath, key: IndexKey(index: currentIndex))
        currentIndex += 1
        return decoder
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(Any?.self, .init(codingPath: codingPath + [IndexKey(index: currentIndex)], debugDescription: "Unkeyed container is at end."))
        }
        if document.nodes[elements[currentIndex]].kind == .null {
            currentIndex += 1
            return true
        }
        return false
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        // A null fails in the type's own decoding, as with JSONDecoder.
        try next(type).decodeValue(type)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next([String: Any].self).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next([Any].self).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder { try next(Any.self) }
}
