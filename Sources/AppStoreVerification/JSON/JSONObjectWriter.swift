import Foundation

/// Writes one JSON object member by member, for the models whose encoding is written by hand
/// (``DirectlyEncodable``): the bytes `AppStoreJSON.makeEncoder()` writes, without building a tree.
///
/// The caller writes the members in byte order of their names (as `.sortedKeys` orders them) and
/// skips `nil` ones (as synthesized `Encodable` conformances do); names must need no escaping. The
/// values are written as ``JSONTreeEncoder`` writes them: strings escaped by
/// `EncodedJSONNode.writeString`, dates in milliseconds, open enumerations as their raw values, and
/// anything else through the tree encoder.
struct JSONObjectWriter {
    /// The JSON text so far.
    var bytes: [UInt8]
    private var isFirst = true

    /// Starts an object (`{`) at the end of `bytes`, which the writer holds (and `bytes` is left
    /// empty, so that appending never copies) until ``finish()`` gives the text back.
    init(taking bytes: inout [UInt8]) {
        self.bytes = bytes
        bytes = []
        self.bytes.append(UInt8(ascii: "{"))
    }

    /// Closes the object (`}`) and returns the text.
    consuming func finish() -> [UInt8] {
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    /// `,"name":` (no comma before the first member).
    private mutating func name(_ name: StaticString) {
        if !isFirst { bytes.append(UInt8(ascii: ",")) }
        isFirst = false
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        bytes.append(contentsOf: "\":".utf8)
    }

    mutating func string(_ name: StaticString, _ value: String?) {
        guard let value else { return }
        self.name(name)
        EncodedJSONNode.writeString(value, into: &bytes)
    }

    mutating func integer(_ name: StaticString, _ value: (some BinaryInteger)?) {
        guard let value else { return }
        self.name(name)
        bytes.append(contentsOf: String(value).utf8)
    }

    mutating func bool(_ name: StaticString, _ value: Bool?) {
        guard let value else { return }
        self.name(name)
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    /// Milliseconds since 1970: whole ones as an integer, others as a number (see
    /// `AppStoreJSON.makeEncoder()`).
    ///
    /// - Throws: `EncodingError` for a date whose milliseconds are not finite.
    mutating func date(_ name: StaticString, _ value: Date?) throws {
        guard let value else { return }
        self.name(name)
        try JSONTreeEncoder.node(for: value, parent: nil, key: nil).write(into: &bytes)
    }

    mutating func open<Value: OpenEnumeration>(_ name: StaticString, _ value: Value?) where Value.RawValue == String {
        string(name, value?.rawValue)
    }

    mutating func open<Value: OpenEnumeration>(_ name: StaticString, _ value: Value?) where Value.RawValue: BinaryInteger {
        integer(name, value?.rawValue)
    }

    mutating func strings(_ name: StaticString, _ value: [String]?) {
        guard let value else { return }
        self.name(name)
        bytes.append(UInt8(ascii: "["))
        for (index, element) in value.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            EncodedJSONNode.writeString(element, into: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// A member written by hand too.
    mutating func object(_ name: StaticString, _ value: (some DirectlyEncodable)?) throws {
        guard let value else { return }
        self.name(name)
        try value.writeJSON(into: &bytes)
    }

    /// Any other member, through the tree encoder.
    mutating func encodable(_ name: StaticString, _ value: (some Encodable)?) throws {
        guard let value else { return }
        self.name(name)
        try JSONTreeEncoder.node(for: value, parent: nil, key: nil).write(into: &bytes)
    }
}

/// A model whose JSON is written member by member (``JSONObjectWriter``) instead of through its
/// `Encodable` conformance: the same bytes, several times faster (the Testing product's minter
/// encodes a transaction and a notification per signed notification).
///
/// `ModelRoundTripTests` checks each against `JSONEncoder` with every member present, so that a
/// member added to the model and not to its writer fails a test.
protocol DirectlyEncodable: Encodable {
    /// Appends this value's JSON object to `bytes`.
    ///
    /// - Throws: `EncodingError` for a value JSON cannot hold (a date of infinite milliseconds).
    func writeJSON(into bytes: inout [UInt8]) throws
}
