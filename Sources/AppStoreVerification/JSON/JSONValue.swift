/// One value of a parsed ``JSONDocument``, read through a small typed API.
///
/// Code outside `JSON/` reads documents only through this view (`document.root.member("alg")?.string`),
/// so the tape layout stays private to the JSON layer and can change without touching its readers.
struct JSONValue {
    private let document: JSONDocument
    private let index: Int

    fileprivate init(document: JSONDocument, index: Int) {
        self.document = document
        self.index = index
    }

    /// What kind of value this is.
    var kind: JSONDocument.Kind { document.nodes[index].kind }

    var isObject: Bool { kind == .object }
    var isArray: Bool { kind == .array }

    /// The member named `name`, when this is an object that has one.
    func member(_ name: String) -> JSONValue? {
        guard kind == .object, let found = document.member(name, in: index) else { return nil }
        return JSONValue(document: document, index: found)
    }

    /// The names of this object's members, in document order; empty for other values.
    var memberNames: [String] { kind == .object ? document.memberNames(in: index) : [] }

    /// This array's elements, in order; empty for other values.
    var elements: [JSONValue] {
        guard kind == .array else { return [] }
        return document.elements(of: index).map { JSONValue(document: document, index: $0) }
    }

    /// The string, with escapes decoded; `nil` when this is not a string.
    var string: String? { kind == .string ? document.string(at: index) : nil }

    /// The number as a `Double`; `nil` when this is not a number.
    var double: Double? { kind == .number ? document.double(at: index) : nil }

    /// The boolean; `nil` when this is not `true` or `false`.
    var bool: Bool? {
        switch kind {
        case .true: true
        case .false: false
        default: nil
        }
    }

    /// The value as it appears in the JSON (strings quoted), cut to 80 characters, for messages.
    var excerpt: String { document.excerpt(at: index) }
}

extension JSONDocument {
    /// The document's top-level value.
    var root: JSONValue { JSONValue(document: self, index: 0) }
}
