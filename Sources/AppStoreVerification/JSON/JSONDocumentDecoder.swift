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
